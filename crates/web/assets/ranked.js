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
    human: $('ranked-human'), refresh: $('ranked-refresh'),
  };
  if (!ui.panel) return;
  if (staticSite && !meta) {
    ui.panel.hidden = true;
    return;
  }

  const PLAYER_KEY = 'ai2048-ranked-player';
  const GAME_KEY = 'ai2048-ranked-game';
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
  async function call(method, path, body) {
    const headers = {};
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
  async function retried(method, path, body) {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await call(method, path, body);
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

  async function register() {
    const name = ui.name.value;
    const { status, data } = await call('POST', '/api/players', { name });
    if (status === 201) {
      player = { name: data.name, token: data.token };
      store(PLAYER_KEY, player);
      store(GAME_KEY, null);
      say(`Registered as ${data.name}.`);
    } else {
      say(data.error || `HTTP ${status}`);
    }
    showPlayer();
  }

  async function start() {
    const { status, data } = await call('POST', '/api/ranked');
    if (status !== 201) { say(data.error || `HTTP ${status}`); return; }
    game = data;
    keepGame();
    say('Ranked game: every move is saved (no undo). Use the arrow keys.');
    draw();
  }

  // The running game of before a reload, as the server has it now.
  async function resume() {
    const kept = stored(GAME_KEY);
    if (!kept || !player || kept.player !== player.name) return;
    const { status, data } = await retried('GET', `/api/ranked/${encodeURIComponent(kept.id)}`);
    if (status === 200 && data.player === player.name && !data.over) {
      game = { id: data.id, board: data.board, score: data.score, turn: data.turn, over: data.over };
      say(`Your ranked game goes on at move ${data.turn}, ${data.score} points. Use the arrow keys.`);
      draw();
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
  resume();
  loadLeaders();
})();
