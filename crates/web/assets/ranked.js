// Ranked games and the leaderboard (issue 21): a name, a ranked game that the server
// referees move by move (no undo: a move, once answered, is saved), and the
// leaderboard with a link to each game's replay. Names are always set as text
// (textContent), never as HTML.
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

  let player = null; // {name, token}
  try { player = JSON.parse(localStorage.getItem('ai2048-ranked-player') || 'null'); } catch (_) { player = null; }
  let game = null; // {id, board, score, turn, over}
  let busy = false;

  async function call(method, path, body) {
    const headers = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (player && player.token) headers.Authorization = `Bearer ${player.token}`;
    const response = await fetch(API + path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    return { status: response.status, data };
  }

  function say(text) { ui.status.textContent = text; }

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
      localStorage.setItem('ai2048-ranked-player', JSON.stringify(player));
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
    say('Ranked game: every move is saved (no undo). Use the arrow keys.');
    draw();
  }

  async function move(dir) {
    if (!game || game.over || busy) return;
    busy = true;
    try {
      const { status, data } = await call('POST', `/api/ranked/${game.id}/move`, { dir, turn: game.turn, ai: false });
      if (status === 200) {
        Object.assign(game, { board: data.board, score: data.score, turn: data.turn, over: data.over });
        if (data.over) {
          say(`Game over: ${data.score} points, saved.`);
          loadLeaders();
        }
      } else if (status === 409 && data.game) {
        Object.assign(game, data.game);
        say(data.error);
      } else {
        say(data.error || `HTTP ${status}`);
      }
      draw();
    } finally {
      busy = false;
    }
  }

  async function loadLeaders() {
    const human = ui.human.checked ? '&human=true' : '';
    const { status, data } = await call('GET', `/api/leaderboard?limit=20${human}`);
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
  loadLeaders();
})();
