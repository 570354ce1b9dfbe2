// The page of the game, on `ai2048 serve` and on the static site. It holds no game
// rules: every move, merge, spawn and game over comes from the engine (engine.js:
// the WebAssembly module in the browser, or the server's API), and so does every AI
// move. The page only draws, animates, and keeps a history for undo.
'use strict';

(async () => {
  const KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    w: 'up', s: 'down', a: 'left', d: 'right',
    k: 'up', j: 'down', h: 'left', l: 'right',
  };
  const TIMES_MS = [10, 25, 50, 100, 250, 500, 1000];
  const DEFAULT_TIME_MS = 50;
  const BEST_KEY = 'ai2048.best';
  const SLIDE_MS = 100;
  const SWIPE_PX = 10;
  // The tile that wins, as in the original game: "You win!", then "Keep going".
  const WIN_TILE = 2048;

  const $ = (id) => document.getElementById(id);
  const ui = {
    tiles: $('tiles'), game: $('game'), score: $('score'), scoreValue: $('score-value'),
    best: $('best'), seed: $('seed'),
    over: $('game-over'), retry: $('retry'), newGame: $('new-game'), undo: $('undo'),
    won: $('game-won'), keepGoing: $('keep-going'), retryWon: $('retry-won'),
    hint: $('hint'), autoplay: $('autoplay'), player: $('ai-player'), time: $('ai-time'),
    speed: $('speed'), stats: $('ai-stats'), hintValues: $('hint-values'), message: $('message'),
    stronger: $('stronger'), strongerBox: $('stronger-box'), networkProgress: $('network-progress'),
    networkStatus: $('network-status'), footerEngine: $('footer-engine'),
    update: $('update'), updateReload: $('update-reload'),
  };

  // The game as the server last described it, and the boards before it for undo;
  // `won` once a tile reached WIN_TILE, `keepPlaying` once the player chose to go on.
  const state = {
    seed: 0, turn: 0, board: null, score: 0, over: true, won: false, keepPlaying: false, history: [],
  };
  let busy = false; // a move is on its way to the server
  let autoplay = false;
  let autoplayAfterWin = false; // autoplay was on when "You win!" stopped it
  let generation = 0; // bumped by a new game or an undo, so stale answers are dropped
  let engine = null; // where the game and the AI run (engine.js)

  // For tests and the curious: the page's state and every move played.
  const debug = {
    ready: false, seed: 0, turn: 0, board: null, score: 0, over: false, won: false, keepPlaying: false,
    moves: 0, aiMoves: 0, log: [], lastSearch: null, errors: [], engine: null, network: null,
  };
  window.__ai2048 = debug;

  // No move is taken: the game is over, or it was won and the player has not chosen
  // to keep going.
  const halted = () => state.over || (state.won && !state.keepPlaying);
  const hasWinTile = (board) => board.some((row) => row.some((v) => v >= WIN_TILE));

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  function say(text) {
    ui.message.textContent = text || '';
    if (text) debug.errors.push(text);
  }

  // ---- Drawing -------------------------------------------------------------------

  function tileClass(value) {
    return value > 2048 ? 'tile-super' : `tile-${value}`;
  }

  function placeTile(el, cell) {
    const row = Math.floor(cell / 4);
    const col = cell % 4;
    el.classList.remove('row-0', 'row-1', 'row-2', 'row-3', 'col-0', 'col-1', 'col-2', 'col-3');
    el.classList.add(`row-${row}`, `col-${col}`);
    el.dataset.cell = String(cell);
  }

  function makeTile(value, cell, extra) {
    const el = document.createElement('div');
    el.className = `tile ${tileClass(value)} tile-digits-${String(value).length}`;
    if (extra) el.classList.add(extra);
    el.dataset.value = String(value);
    placeTile(el, cell);
    const inner = document.createElement('div');
    inner.className = 'tile-inner';
    inner.textContent = String(value);
    el.appendChild(inner);
    return el;
  }

  const cellValue = (board, cell) => board[Math.floor(cell / 4)][cell % 4];

  // Draws `board` at once; the cells in `fresh` appear with a zoom.
  function drawBoard(board, fresh) {
    ui.tiles.replaceChildren();
    for (let cell = 0; cell < 16; cell += 1) {
      const value = cellValue(board, cell);
      if (value) {
        ui.tiles.appendChild(makeTile(value, cell, fresh && fresh.has(cell) ? 'tile-new' : null));
      }
    }
  }

  // Animates a move: every tile slides from its cell to where the server says, two
  // tiles that merge slide onto one cell and the doubled tile pops, and the spawned
  // tile appears.
  function drawMove(before, after, motions, spawn) {
    ui.tiles.replaceChildren();
    const sliding = [];
    const merged = new Set();
    for (const m of motions) {
      const el = makeTile(cellValue(before, m.from), m.from, m.merged ? 'tile-source' : null);
      ui.tiles.appendChild(el);
      sliding.push([el, m.to]);
      if (m.merged) merged.add(m.to);
    }
    // Lay the tiles out where they were, then move them: the transition slides them.
    void ui.tiles.offsetWidth;
    for (const [el, to] of sliding) placeTile(el, to);
    for (const cell of merged) ui.tiles.appendChild(makeTile(cellValue(after, cell), cell, 'tile-merged'));
    if (spawn) ui.tiles.appendChild(makeTile(spawn.tile, spawn.cell, 'tile-new'));
    // The merged tiles' sources are hidden under the new tile: drop them after the slide.
    setTimeout(() => {
      for (const el of ui.tiles.querySelectorAll('.tile-source')) el.remove();
    }, SLIDE_MS + 20);
  }

  function readBest() {
    try {
      return Number(window.localStorage.getItem(BEST_KEY)) || 0;
    } catch (e) {
      return 0;
    }
  }

  function drawScore(gained) {
    ui.scoreValue.textContent = String(state.score);
    if (gained > 0) {
      const plus = document.createElement('div');
      plus.className = 'score-addition';
      plus.textContent = `+${gained}`;
      ui.score.appendChild(plus);
      setTimeout(() => plus.remove(), 700);
    }
    let best = readBest();
    if (state.score > best) {
      best = state.score;
      try {
        window.localStorage.setItem(BEST_KEY, String(best));
      } catch (e) {
        // No storage (a private window): the best score lasts as long as the page.
      }
    }
    ui.best.textContent = String(best);
  }

  function sync() {
    Object.assign(debug, {
      seed: state.seed, turn: state.turn, board: state.board, score: state.score, over: state.over,
      won: state.won, keepPlaying: state.keepPlaying,
    });
    ui.over.hidden = !state.over;
    ui.won.hidden = state.over || !state.won || state.keepPlaying;
    ui.undo.disabled = state.history.length === 0;
    ui.seed.textContent = `game ${state.seed}, move ${state.turn}`;
  }

  // ---- The game ------------------------------------------------------------------

  // A new game: of `seed` when it is a number (the page's address may name one:
  // ?seed=N replays that game), else of a fresh seed.
  async function newGame(seed) {
    generation += 1;
    const mine = generation;
    setAutoplay(false);
    engine.cancel();
    clearHint();
    try {
      const game = await engine.newGame(typeof seed === 'number' ? seed : undefined);
      if (mine !== generation) return;
      begin(game, new Set(game.spawns.map((s) => s.cell)));
      say('');
      debug.ready = true;
    } catch (e) {
      say(e.message);
    }
  }

  // Starts playing from `game` (seed, turn, board, score, over), drawing `spawned`
  // cells as new: no history, and won only if the board holds WIN_TILE already.
  function begin(game, spawned) {
    Object.assign(state, {
      seed: game.seed, turn: game.turn, board: game.board, score: game.score, over: game.over,
      won: hasWinTile(game.board), keepPlaying: false, history: [],
    });
    autoplayAfterWin = false;
    drawBoard(game.board, spawned);
    drawScore(0);
    sync();
  }

  // Plays `dir`; `by` says who asked ('player' or 'ai'). True if the board moved.
  async function move(dir, by) {
    if (busy || halted() || !state.board) return false;
    busy = true;
    const mine = generation;
    const before = state.board;
    try {
      const step = await engine.step({ board: before, dir, seed: state.seed, turn: state.turn });
      if (mine !== generation || !step.moved) return false;
      state.history.push({
        board: before, score: state.score, turn: state.turn, over: state.over, won: state.won,
      });
      Object.assign(state, { board: step.board, turn: step.turn, over: step.over });
      if (!state.won && hasWinTile(step.board)) {
        state.won = true;
        if (!state.keepPlaying) {
          // As the original game: "You win!" stops play until "Keep going".
          autoplayAfterWin = autoplay;
          setAutoplay(false);
        }
      }
      state.score += step.score;
      debug.log.push({ board: before, dir, by });
      debug.moves += 1;
      if (by === 'ai') debug.aiMoves += 1;
      drawMove(before, step.board, step.motions, step.spawn);
      drawScore(step.score);
      clearHint();
      sync();
      if (step.over) setAutoplay(false);
      return true;
    } catch (e) {
      say(e.message);
      return false;
    } finally {
      busy = false;
    }
  }

  function undo() {
    const last = state.history.pop();
    if (!last) return;
    generation += 1;
    setAutoplay(false);
    engine.cancel();
    clearHint();
    Object.assign(state, last);
    drawBoard(state.board, null);
    drawScore(0);
    sync();
  }

  // ---- The AI --------------------------------------------------------------------

  function searchRequest() {
    return { board: state.board, ai: ui.player.value, time_ms: Number(ui.time.value) };
  }

  // Shows a search's line of stats; returns its description (describeSearch).
  function showSearch(best, elapsedMs) {
    debug.lastSearch = best;
    const described = describeSearch(best, elapsedMs);
    ui.stats.textContent = best.dir ? described.stats : 'No move is legal: the game is over.';
    return described;
  }

  // A search's answer as the page says it: its line of stats, and each direction's
  // value as text. Where an endgame table's move was played, the values are the
  // table's probabilities of making its target, as percentages, and the line names
  // the table.
  function describeSearch(best, elapsedMs) {
    const fromTable = best.table === 'played' || best.table === 'decided';
    const ms = `${Math.round(elapsedMs)} ms`;
    const nodes = Number(best.nodes).toLocaleString('en-US');
    const searched = `depth ${best.depth}, ${nodes} nodes`;
    let stats = `${best.dir}: ${searched}, ${ms}`;
    if (fromTable) {
      const table = best.table_name ? `the endgame table ${best.table_name}` : 'an endgame table';
      const over = best.table === 'played' ? ` (over the search's move: ${searched})` : '';
      stats = `${best.dir}: ${table}, ${formatPercent(best.value)} to make its target${over}, ${ms}`;
    }
    const values = {};
    for (const dir of ['up', 'down', 'left', 'right']) {
      const value = best.values ? best.values[dir] : null;
      values[dir] = fromTable ? formatPercent(value) : formatValue(value);
    }
    return { stats, values };
  }

  // A direction's value, on the player's own scale: whole numbers with separators
  // (the searches' values run to millions and differ in the last digits).
  function formatValue(v) {
    if (v === null || v === undefined) return '–';
    if (Math.abs(v) >= 1e10) return v.toExponential(4);
    if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
    return v.toFixed(1);
  }

  // A table's probability as a percentage to two places; '–' for a move that is
  // illegal or leaves the table's world.
  function formatPercent(p) {
    if (p === null || p === undefined) return '–';
    return `${(100 * p).toFixed(2)}%`;
  }

  // A search that a new game or an undo cancelled: nothing to tell.
  const cancelled = (e) => e && e.status === 409 && engine.kind === 'wasm';

  function clearHint() {
    ui.hintValues.hidden = true;
  }

  async function hint() {
    if (!state.board || halted()) return;
    const mine = generation;
    const board = state.board;
    ui.hint.disabled = true;
    try {
      const started = performance.now();
      const best = await engine.best(searchRequest());
      if (mine !== generation || board !== state.board) return;
      const { values } = showSearch(best, performance.now() - started);
      for (const el of ui.hintValues.querySelectorAll('.hint-value')) {
        const dir = el.dataset.dir;
        const value = best.values ? best.values[dir] : null;
        el.querySelector('.value').textContent = values[dir];
        el.classList.toggle('best', dir === best.dir);
        el.classList.toggle('illegal', value === null || value === undefined);
      }
      ui.hintValues.hidden = false;
      say('');
    } catch (e) {
      if (!cancelled(e)) say(e.message);
    } finally {
      ui.hint.disabled = false;
    }
  }

  // The pause between the AI's moves: speed 10 is no pause, 0 is a second.
  const autoplayDelay = () => Math.round(1000 * ((10 - Number(ui.speed.value)) / 10) ** 2);

  function setAutoplay(on) {
    autoplay = on;
    ui.autoplay.setAttribute('aria-pressed', String(on));
    ui.autoplay.textContent = on ? 'Stop' : 'Autoplay';
  }

  function startAutoplay() {
    if (halted()) return;
    setAutoplay(true);
    runAutoplay();
  }

  async function runAutoplay() {
    while (autoplay && !halted()) {
      const mine = generation;
      const started = performance.now();
      let best;
      try {
        best = await engine.best(searchRequest());
      } catch (e) {
        if (cancelled(e)) continue;
        if (e.status === 503) {
          say('The server is busy; trying again.');
          await sleep(1000 * e.retryAfter);
          continue;
        }
        say(e.message);
        setAutoplay(false);
        return;
      }
      if (!autoplay || mine !== generation) continue;
      showSearch(best, performance.now() - started);
      if (!best.dir) break;
      // A key pressed meanwhile may hold the board: wait for that move to land.
      while (busy) await sleep(5);
      if (mine !== generation) continue;
      await move(best.dir, 'ai');
      await sleep(Math.max(autoplayDelay(), 0));
    }
    setAutoplay(false);
  }

  async function loadPlayers() {
    try {
      const info = await engine.players();
      ui.player.replaceChildren();
      for (const p of info.players) {
        const option = document.createElement('option');
        option.value = p.name;
        option.textContent = p.name;
        option.title = p.about;
        option.selected = p.name === info.default;
        ui.player.appendChild(option);
      }
      fillTimes(info.max_time_ms);
    } catch (e) {
      say(e.message);
      fillTimes(1000);
    }
  }

  function fillTimes(maxMs) {
    ui.time.replaceChildren();
    for (const ms of TIMES_MS.filter((t) => t <= maxMs)) {
      const option = document.createElement('option');
      option.value = String(ms);
      option.textContent = ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
      option.selected = ms === DEFAULT_TIME_MS;
      ui.time.appendChild(option);
    }
  }

  // ---- Input ---------------------------------------------------------------------

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === 'SELECT' || target.tagName === 'INPUT')) return;
    const dir = KEYS[event.key] || KEYS[event.key.toLowerCase()];
    if (dir) {
      event.preventDefault();
      move(dir, 'player');
    } else if (event.key === 'u' || event.key === 'U') {
      undo();
    } else if (event.key === '?') {
      hint();
    }
  });

  let swipeStart = null;
  ui.game.addEventListener('pointerdown', (event) => {
    if (event.target.closest('button')) return;
    swipeStart = { x: event.clientX, y: event.clientY, id: event.pointerId };
    ui.game.setPointerCapture(event.pointerId);
  });
  ui.game.addEventListener('pointerup', (event) => {
    if (!swipeStart || swipeStart.id !== event.pointerId) return;
    const dx = event.clientX - swipeStart.x;
    const dy = event.clientY - swipeStart.y;
    swipeStart = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return;
    const dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : (dy > 0 ? 'down' : 'up');
    move(dir, 'player');
  });
  ui.game.addEventListener('pointercancel', () => {
    swipeStart = null;
  });

  ui.newGame.addEventListener('click', newGame);
  ui.retry.addEventListener('click', newGame);
  ui.undo.addEventListener('click', undo);
  ui.hint.addEventListener('click', hint);
  ui.autoplay.addEventListener('click', () => {
    if (autoplay) {
      setAutoplay(false);
    } else {
      startAutoplay();
    }
  });
  ui.retryWon.addEventListener('click', newGame);
  ui.keepGoing.addEventListener('click', () => {
    state.keepPlaying = true;
    sync();
    // Autoplay that the win stopped goes on by itself.
    if (autoplayAfterWin) {
      autoplayAfterWin = false;
      startAutoplay();
    }
  });

  // For tests: play on from any board (the server takes any board, seed and turn); a
  // board that holds 2048 already plays on past it, as after "Keep going".
  debug.load = (board, score = 0) => {
    generation += 1;
    setAutoplay(false);
    clearHint();
    begin({ seed: state.seed, turn: 0, board, score, over: false }, null);
    if (state.won) {
      state.keepPlaying = true;
      sync();
    }
  };

  // For tests and the curious: the AI's answer to a search request, as the page asks it.
  debug.best = (request) => engine.best(request);
  // How many times the AI's workers decoded the network (the WebAssembly engine), and
  // what the worker at work says of itself: {decodes, instances} of its module.
  debug.decodes = () => (engine.network ? engine.network.decodes : 0);
  debug.workerStats = () => (engine.stats ? engine.stats() : null);
  // For tests: the next search of the AI's module panics (the worker recovers), or
  // the next move of the page's own instance of the module (the engine recovers).
  debug.panicNextSearch = () => engine.panicNextSearch();
  debug.panicNextMove = () => engine.panicNextMove();

  // Buttons keep no focus, so that the arrow keys always play.
  for (const button of document.querySelectorAll('button')) {
    button.addEventListener('mouseup', () => button.blur());
  }

  // ---- The built-in network (the WebAssembly engine) ------------------------------

  const STRONGER_KEY = 'ai2048.stronger';

  function rememberStronger(on) {
    try {
      window.localStorage.setItem(STRONGER_KEY, on ? '1' : '0');
    } catch (e) {
      // No storage: the choice lasts as long as the page.
    }
  }

  function strongerWanted() {
    try {
      return window.localStorage.getItem(STRONGER_KEY) === '1';
    } catch (e) {
      return false;
    }
  }

  // Has the AI's worker take the network (from the cache, or downloaded), check it and
  // decode it.
  async function loadNetwork() {
    ui.stronger.disabled = true;
    ui.networkProgress.hidden = false;
    ui.networkProgress.removeAttribute('value');
    ui.networkStatus.textContent = 'Loading the network…';
    try {
      const manifest = await window.ai2048Network.manifest();
      if (!manifest) throw new Error('this site has no network file');
      const info = await engine.network.load(manifest, (received, total) => {
        ui.networkProgress.max = total;
        ui.networkProgress.value = received;
        const mb = (n) => (n / 1e6).toFixed(1);
        ui.networkStatus.textContent = received < total
          ? `Downloading the network: ${mb(received)} of ${mb(total)} MB`
          : 'Reading the network…';
      });
      debug.network = info;
      ui.networkStatus.textContent = `The AI plays with the network (${(info.games / 1e6).toFixed(2)} M games of training).`
        + (info.unkept ? ` It is not kept for your next visit: ${info.unkept}.` : '');
      rememberStronger(true);
    } catch (e) {
      ui.stronger.checked = false;
      ui.networkStatus.textContent = '';
      say(`The network could not be loaded: ${e.message}`);
    } finally {
      ui.networkProgress.hidden = true;
      ui.stronger.disabled = false;
      loadPlayers();
    }
  }

  async function unloadNetwork() {
    rememberStronger(false);
    debug.network = null;
    ui.networkStatus.textContent = 'The AI plays with the hand-made heuristic.';
    await engine.network.unload();
    loadPlayers();
  }

  // ---- Start ---------------------------------------------------------------------

  // The largest seed: 2^53 - 1, the largest whole number JavaScript (and the API) holds
  // exactly. Seeds run to it, so their links have up to 16 digits.
  const MAX_SEED = Number.MAX_SAFE_INTEGER;

  // The seed `text` names (digits only), or undefined when it names none up to MAX_SEED:
  // compared as a BigInt, so that no larger seed is rounded into a smaller one.
  function parseSeed(text) {
    if (!/^\d+$/.test(text) || BigInt(text) > BigInt(MAX_SEED)) return undefined;
    return Number(text);
  }

  ui.best.textContent = String(readBest());
  try {
    engine = await window.ai2048Engine.start();
  } catch (e) {
    say(e.message);
    return;
  }
  debug.engine = engine.kind;
  if (engine.onCrash) {
    engine.onCrash(say);
  }
  ui.footerEngine.textContent = engine.kind === 'wasm'
    ? 'in your browser, compiled to WebAssembly'
    : 'on the ai2048 serve server';
  const networkOffered = engine.network !== null && await window.ai2048Network.available();
  if (networkOffered) {
    ui.strongerBox.hidden = false;
    ui.stronger.addEventListener('change', () => {
      if (ui.stronger.checked) loadNetwork();
      else unloadNetwork();
    });
  }
  if (engine.kind === 'wasm' && 'serviceWorker' in navigator && window.isSecureContext) {
    // Offline after one visit: sw.js keeps the site's files. It serves this page from
    // the version of the site it started with; when a new version takes over, the page
    // goes on with its own and offers the new one on a reload.
    navigator.serviceWorker.register('sw.js').catch(() => {});
    if (navigator.serviceWorker.controller) {
      navigator.serviceWorker.addEventListener('controllerchange', () => {
        ui.update.hidden = false;
      });
      ui.updateReload.addEventListener('click', () => window.location.reload());
    }
  }
  await loadPlayers();
  const asked = new URLSearchParams(window.location.search).get('seed');
  const seed = asked === null ? undefined : parseSeed(asked);
  if (asked !== null && seed === undefined) {
    say(`?seed=${asked}: a seed is a whole number from 0 to ${MAX_SEED} (2^53 - 1)`);
  }
  await newGame(seed);
  if (networkOffered && strongerWanted()) {
    ui.stronger.checked = true;
    loadNetwork();
  }
})();
