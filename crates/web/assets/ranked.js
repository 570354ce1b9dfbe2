// Ranked games and the leaderboard (issue 21): a name, a ranked game that the server
// referees move by move (no undo: a move, once answered, is saved), and the
// leaderboard with a link to each game's replay. Names are always set as text
// (textContent), never as HTML.
//
// Nothing is lost to a bad connection or a reload (issue 38):
// - A move whose request fails (no answer: the network, or the server restarting) or
//   that the server asks to wait for (429, 503) is sent again, the same move at the
//   same turn, after 0.5, 1, 2, 4 and 8 s (or the server's Retry-After): the server
//   answers a move sent again with its first answer and applies it once, so a move
//   whose answer was lost is neither lost nor played twice.
// - The running game's id is kept in localStorage beside the player's token: a reload
//   asks the server for the game as it stands (GET /api/ranked/G) and plays on.
// - A registration carries an Idempotency-Key, a random value kept in localStorage
//   (with the name) until an answer arrives, and is sent again as a move is: the
//   server answers the same key and name with the same token, so a registration whose
//   answer was lost is neither lost nor refused as a taken name. A reload before the
//   answer sends it again.
// - A new game refused because the player has as many open games as the server allows
//   (409 with "open_games") resumes the latest of them, and lists them all to resume
//   or end (POST /api/ranked/G/end).
//
// The API is on this page's server, or at the address of
// <meta name="ai2048-scores-api" content="https://..."> (a static site: that server
// then needs `ai2048 serve --allow-origin` for this site's origin).
'use strict';

(() => {
  const meta = document.querySelector('meta[name="ai2048-scores-api"]');
  const API = meta ? meta.content.replace(/\/$/, '') : '';
  // A static site has no API of its own: ranked games only with a scores address.
  const engineMeta = document.querySelector('meta[name="ai2048-engine"]');
  const staticSite = engineMeta && engineMeta.content === 'wasm';
  const $ = (id) => document.getElementById(id);
  const ui = {
    panel: $('ranked'), name: $('ranked-name'), register: $('ranked-register'),
    who: $('ranked-who'), start: $('ranked-start'), board: $('ranked-board'),
    score: $('ranked-score'), status: $('ranked-status'), leaders: $('ranked-leaders'),
    human: $('ranked-human'), refresh: $('ranked-refresh'), open: $('ranked-open'),
  };
  if (!ui.panel) return;
  if (staticSite && !meta) {
    ui.panel.hidden = true;
    return;
  }

  const PLAYER_KEY = 'ai2048-ranked-player';
  const GAME_KEY = 'ai2048-ranked-game';
  const REGISTRATION_KEY = 'ai2048-ranked-registration';
  const stored = (key) => {
    try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch (_) { return null; }
  };
  const store = (key, value) => {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (_) {
      // No storage (a private window): it lasts as long as the page.
    }
  };
  let player = stored(PLAYER_KEY); // {name, token}
  let game = null; // {id, board, score, turn, over}
  let busy = false;

  // The answer of one request: {status, data}; status 0 when no answer came.
  async function call(method, path, body, extraHeaders) {
    const headers = { ...extraHeaders };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (player && player.token) headers.Authorization = `Bearer ${player.token}`;
    let response;
    try {
      response = await fetch(API + path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      return { status: 0, data: { error: 'the scores server cannot be reached' }, retryAfter: null };
    }
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    const retryAfter = Number(response.headers.get('Retry-After')) || null;
    return { status: response.status, data, retryAfter };
  }

  const RETRY_MS = [500, 1000, 2000, 4000, 8000];
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // `call`, sent again after each of RETRY_MS while no answer comes, or the server
  // asks to wait (429, 503: after its Retry-After when it says one). For requests the
  // server answers the same when they come twice: a move (at its turn) and reads.
  async function retried(method, path, body, headers) {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await call(method, path, body, headers);
      const again = answer.status === 0 || answer.status === 429 || answer.status === 503;
      if (!again || attempt >= RETRY_MS.length) {
        if (attempt > 0 && !again) say('Connected again.');
        return answer;
      }
      const wait = answer.retryAfter ? 1000 * answer.retryAfter : RETRY_MS[attempt];
      say(`${answer.data.error || `HTTP ${answer.status}`}: trying again in ${Math.ceil(wait / 1000)} s…`);
      await sleep(wait);
    }
  }

  function say(text) { ui.status.textContent = text; }

  // The running game, kept for a reload; forgotten once it is over.
  function keepGame() {
    store(GAME_KEY, game && !game.over && player ? { id: game.id, player: player.name } : null);
  }

  function showPlayer() {
    ui.who.textContent = player ? `Playing as ${player.name}` : 'Choose a name to play ranked games.';
    ui.start.disabled = !player;
  }

  function draw() {
    ui.board.replaceChildren();
    const rows = game ? game.board : [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
    for (const row of rows) {
      for (const tile of row) {
        const cell = document.createElement('div');
        cell.className = `ranked-cell ranked-tile-${Math.min(tile, 4096)}`;
        cell.textContent = tile ? String(tile) : '';
        ui.board.appendChild(cell);
      }
    }
    ui.score.textContent = game ? String(game.score) : '0';
    ui.panel.classList.toggle('ranked-playing', Boolean(game && !game.over));
  }

  // A random Idempotency-Key: 32 hexadecimal digits (128 bits).
  function newKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  // Registers `name` (the field's when not given), sent again while no answer comes,
  // with the key kept for that name until one does.
  async function register(name) {
    if (typeof name !== 'string') name = ui.name.value;
    const pending = stored(REGISTRATION_KEY);
    const key = pending && pending.name === name && typeof pending.key === 'string'
      ? pending.key : newKey();
    store(REGISTRATION_KEY, { name, key });
    const { status, data } = await retried('POST', '/api/players', { name }, { 'Idempotency-Key': key });
    if (status !== 0) store(REGISTRATION_KEY, null);
    if (status === 201) {
      player = { name: data.name, token: data.token };
      store(PLAYER_KEY, player);
      store(GAME_KEY, null);
      say(`Registered as ${data.name}.`);
    } else if (status === 0) {
      say(`${data.error}: not registered yet; press Register again (or reload) to try again.`);
    } else {
      say(data.error || `HTTP ${status}`);
    }
    showPlayer();
  }

  async function start() {
    const { status, data } = await call('POST', '/api/ranked');
    if (status === 409 && Array.isArray(data.open_games) && data.open_games.length) {
      await tooManyOpen(data.open_games);
      return;
    }
    if (status !== 201) { say(data.error || `HTTP ${status}`); return; }
    game = data;
    showOpen([]);
    keepGame();
    say('Ranked game: every move is saved (no undo). Use the arrow keys.');
    draw();
  }

  // The player's game `id` as the server has it, made the running game when it is
  // theirs and not over. Returns the answer.
  async function openGame(id) {
    const answer = await retried('GET', `/api/ranked/${encodeURIComponent(id)}`);
    const { status, data } = answer;
    if (status === 200 && player && data.player === player.name && !data.over) {
      game = { id: data.id, board: data.board, score: data.score, turn: data.turn, over: data.over };
      keepGame();
      draw();
    }
    return answer;
  }

  // A new game refused: the player has as many open games as the server allows
  // (`ids`, the most recently played first). The latest goes on, and each is offered
  // to resume or to end.
  async function tooManyOpen(ids) {
    showOpen(ids);
    const { status, data } = await openGame(ids[0]);
    const list = `You have ${ids.length} open ranked games, the most you may have: end one below to start a new one.`;
    if (status === 200 && game && game.id === ids[0]) {
      say(`${list} Your latest goes on at move ${data.turn}, ${data.score} points. Use the arrow keys.`);
    } else {
      say(`${list} ${data.error || ''}`.trim());
    }
  }

  // The open games, each with buttons to resume it and to end it; none hides the row.
  function showOpen(ids) {
    if (!ui.open) return;
    ui.open.replaceChildren();
    ui.open.hidden = ids.length === 0;
    for (const id of ids) {
      const item = document.createElement('span');
      item.className = 'ranked-open-game';
      item.dataset.game = id;
      const label = document.createElement('span');
      label.textContent = `Game ${id.slice(0, 8)}`;
      const resumeButton = document.createElement('button');
      resumeButton.type = 'button';
      resumeButton.className = 'button ranked-resume';
      resumeButton.textContent = 'Resume';
      resumeButton.addEventListener('click', async () => {
        const { status, data } = await openGame(id);
        if (status === 200 && game && game.id === id) {
          say(`Your ranked game goes on at move ${data.turn}, ${data.score} points. Use the arrow keys.`);
        } else {
          say(data.over ? `That game is over: ${data.score} points, saved.` : (data.error || `HTTP ${status}`));
        }
      });
      const endButton = document.createElement('button');
      endButton.type = 'button';
      endButton.className = 'button ranked-end';
      endButton.textContent = 'End';
      endButton.addEventListener('click', async () => {
        const { status, data } = await retried('POST', `/api/ranked/${encodeURIComponent(id)}/end`);
        if (status !== 200) { say(data.error || `HTTP ${status}`); return; }
        if (game && game.id === id) {
          game = null;
          keepGame();
          draw();
        }
        item.remove();
        if (!ui.open.children.length) ui.open.hidden = true;
        say(`Game ${id.slice(0, 8)} ended with ${data.score} points, saved. Press Ranked game for a new one.`);
        loadLeaders();
      });
      item.append(label, ' ', resumeButton, ' ', endButton);
      ui.open.appendChild(item);
    }
  }

  // The running game of before a reload, as the server has it now.
  async function resume() {
    const kept = stored(GAME_KEY);
    if (!kept || !player || kept.player !== player.name) return;
    const { status, data } = await openGame(kept.id);
    if (status === 200 && game && game.id === kept.id) {
      say(`Your ranked game goes on at move ${data.turn}, ${data.score} points. Use the arrow keys.`);
      return;
    }
    if (status === 0) {
      say(`${data.error}: reload to go on with your ranked game.`);
      return;
    }
    if (status === 200 && data.over) say(`Your last ranked game is over: ${data.score} points, saved.`);
    store(GAME_KEY, null);
  }

  async function move(dir) {
    if (!game || game.over || busy) return;
    busy = true;
    try {
      const { status, data } = await retried('POST', `/api/ranked/${game.id}/move`, { dir, turn: game.turn, ai: false });
      if (status === 200) {
        Object.assign(game, { board: data.board, score: data.score, turn: data.turn, over: data.over });
        if (data.over) {
          say(`Game over: ${data.score} points, saved.`);
          loadLeaders();
        }
      } else if (status === 409 && data.game) {
        Object.assign(game, data.game);
        say(data.error);
      } else if (status === 0) {
        say(`${data.error}: the move was not played; press it again.`);
      } else {
        say(data.error || `HTTP ${status}`);
      }
      keepGame();
      draw();
    } finally {
      busy = false;
    }
  }

  async function loadLeaders() {
    const human = ui.human.checked ? '&human=true' : '';
    const { status, data } = await retried('GET', `/api/leaderboard?limit=20${human}`);
    ui.leaders.replaceChildren();
    if (status !== 200) { say(data.error || `HTTP ${status}`); return; }
    for (const entry of data.entries) {
      const tr = document.createElement('tr');
      for (const text of [entry.rank, entry.name, entry.score, entry.max_tile, entry.ai_moves ? 'AI' : '']) {
        const td = document.createElement('td');
        td.textContent = String(text);
        tr.appendChild(td);
      }
      const td = document.createElement('td');
      const a = document.createElement('a');
      a.href = `${API}/api/ranked/${encodeURIComponent(entry.game)}/replay`;
      a.textContent = 'replay';
      td.appendChild(a);
      tr.appendChild(td);
      ui.leaders.appendChild(tr);
    }
  }

  // While a ranked game runs, the arrow keys play it, not the free game.
  const KEYS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
  document.addEventListener('keydown', (event) => {
    if (!game || game.over || !(event.key in KEYS) || event.target === ui.name) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    move(KEYS[event.key]);
  }, true);

  ui.register.addEventListener('click', register);
  ui.start.addEventListener('click', start);
  ui.refresh.addEventListener('click', loadLeaders);
  ui.human.addEventListener('change', loadLeaders);
  // For tests and other scripts: play a move of the ranked game.
  window.ai2048Ranked = { move, state: () => game };
  showPlayer();
  draw();
  // A registration whose answer never came before the page closed is sent again, with
  // its key: the server answers it as the first time.
  const pending = stored(REGISTRATION_KEY);
  if (!player && pending && typeof pending.name === 'string') {
    ui.name.value = pending.name;
    say(`Registering as ${pending.name} again (no answer came)…`);
    register(pending.name);
  }
  resume();
  loadLeaders();
})();
