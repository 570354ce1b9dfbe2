// The page of `ai2048 serve` in a real headless Chromium: it loads, keys move the
// tiles, the hint shows four values (an endgame table's as percentages, with its
// name), autoplay plays legal moves, 2048 shows "You win!"
// with "Keep going" as the original game does, a ranked game is played out, resumed
// after a reload and loses no move to a lost answer or to going offline, and
// screenshots are saved for people to look at.
//
// Environment: AI2048_BIN, the ai2048 binary (default target/debug/ai2048 from the
// repository root); AI2048_ARTIFACTS, where the screenshot goes (default
// target/web-artifacts); CHROMIUM, the browser (default /usr/bin/chromium).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { ARTIFACTS, ROOT, launch } from './browser.mjs';

const BINARY = path.resolve(ROOT, process.env.AI2048_BIN || 'target/debug/ai2048');
const DIRS = ['up', 'down', 'left', 'right'];
// A direction's value as the hint shows it: 1,234,567 or 812.5 or 1.2345e+12.
const VALUE = /^-?(\d{1,3}(,\d{3})+|\d+\.\d|\d\.\d{4}e[+-]\d+)$/;

let server = null;
let url = null;
let browser = null;
let page = null;
let scoresDir = null;
let pageErrors = [];

function stopServer() {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
}
// Even if the run is cut short, leave no server behind.
process.on('exit', stopServer);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopServer();
    process.exit(1);
  });
}

// A small endgame table in `dir`, where the server's players find their tables
// ($AI2048_TABLES): the snake of eight large tiles and a 16 to make below its end. It
// answers only boards that hold a 16384, which no other test's game reaches.
function buildTable(dir) {
  const out = path.join(dir, 'snake8-16.table');
  const args = ['tables', 'build', '--pattern', 'xxxx/xxxx/t.../....', '--target', '16', '--out', out, '-q'];
  const built = spawnSync(BINARY, args, { encoding: 'utf8' });
  assert.equal(built.status, 0, `${BINARY} ${args.join(' ')}: ${built.stderr}`);
}

// Starts `ai2048 serve --port 0` and reads the address it prints.
function startServer() {
  return new Promise((resolve, reject) => {
    // The saved scores go to a database of the test's own, the tables to a folder.
    scoresDir = mkdtempSync(path.join(tmpdir(), 'ai2048-scores-'));
    buildTable(scoresDir);
    const args = ['serve', '--port', '0', '--db', path.join(scoresDir, 'scores.db')];
    const env = { ...process.env, AI2048_TABLES: scoresDir };
    const child = spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    server = child;
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no address from ${BINARY} in 30 s: ${stderr}`)), 30_000);
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', (e) => { clearTimeout(timer); reject(new Error(`cannot start ${BINARY}: ${e.message}`)); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${BINARY} exited (${code}): ${stderr}`)); });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const found = /^listening on (http:\/\/\S+)$/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
  });
}

async function api(route, body) {
  const response = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${route}: ${await response.clone().text()}`);
  return response.json();
}

// The board as the page shows it: the value of each tile, by its cell.
function domBoard() {
  return page.evaluate(() => {
    const board = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
    for (const tile of document.querySelectorAll('#tiles .tile:not(.tile-source)')) {
      const cell = Number(tile.dataset.cell);
      board[Math.floor(cell / 4)][cell % 4] = Number(tile.dataset.value);
    }
    return board;
  });
}

const debug = () => page.evaluate(() => JSON.parse(JSON.stringify(window.__ai2048)));
const tileCount = (board) => board.flat().filter((v) => v !== 0).length;

// Waits until the page shows what its state says (the slide and the merges are done).
async function settled() {
  await page.waitForFunction(() => !document.querySelector('#tiles .tile-source'));
  const state = await debug();
  assert.deepEqual(await domBoard(), state.board, 'the page shows the board the server sent');
  return state;
}

before(async () => {
  url = await startServer();
  browser = await launch();
  ({ page } = browser);
  pageErrors = browser.errors;
});

after(async () => {
  try {
    if (browser) await browser.close();
  } finally {
    stopServer();
    if (scoresDir) rmSync(scoresDir, { recursive: true, force: true });
  }
});

test('the page loads with a board of two tiles', async () => {
  await page.goto(`${url}/`);
  assert.match(await page.title(), /2048/);
  await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready);
  const state = await settled();
  assert.equal(tileCount(state.board), 2);
  assert.equal(await page.locator('#tiles .tile').count(), 2);
  assert.equal(await page.locator('#score-value').innerText(), '0');
  // The players come from the server.
  const players = await page.locator('#ai-player option').allInnerTexts();
  assert.ok(players.includes('expectimax') && players.includes('greedy'), players.join());
});

test('the keys move the tiles', async () => {
  const before = await domBoard();
  const { moves } = await debug();
  // Some direction is always legal at the start: press arrows until the board moves.
  for (const key of ['ArrowLeft', 'ArrowDown', 'ArrowRight', 'ArrowUp']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
    if ((await debug()).moves > moves) break;
  }
  const state = await settled();
  assert.equal(state.moves, moves + 1, 'an arrow key played one move');
  assert.notDeepEqual(await domBoard(), before, 'the tiles moved');
  assert.equal(state.log.at(-1).by, 'player');
  assert.deepEqual(state.log.at(-1).board, before);

  // WASD and hjkl play too.
  for (const key of ['a', 's', 'd', 'w', 'h', 'j', 'l', 'k']) {
    const count = (await debug()).moves;
    const board = (await debug()).board;
    const legal = (await api('/api/legal', { board })).dirs;
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
    const dir = { a: 'left', s: 'down', d: 'right', w: 'up', h: 'left', j: 'down', l: 'right', k: 'up' }[key];
    assert.equal((await debug()).moves, count + (legal.includes(dir) ? 1 : 0), `key ${key}`);
  }
  await settled();

  // Undo goes back one board.
  const last = (await debug()).log.at(-1).board;
  await page.keyboard.press('u');
  await page.waitForTimeout(50);
  const undone = await settled();
  assert.deepEqual(undone.board, last);
});

test('the hint shows the AI move and the value of each direction', async () => {
  const { board } = await debug();
  const legal = (await api('/api/legal', { board })).dirs;
  await page.click('#hint');
  await page.locator('#hint-values').waitFor({ state: 'visible' });
  const values = await page.locator('#hint-values .hint-value').evaluateAll((els) =>
    els.map((el) => ({
      dir: el.dataset.dir,
      text: el.querySelector('.value').textContent,
      best: el.classList.contains('best'),
    })));
  assert.deepEqual(values.map((v) => v.dir), DIRS);
  for (const v of values) {
    if (legal.includes(v.dir)) assert.match(v.text, VALUE, `${v.dir}: ${v.text}`);
    else assert.equal(v.text, '–');
  }
  const best = values.filter((v) => v.best);
  assert.equal(best.length, 1);
  assert.ok(legal.includes(best[0].dir));
  const stats = await page.locator('#ai-stats').innerText();
  assert.match(stats, /depth \d+, [\d,]+ nodes/);
});

test('where an endgame table decides, the hint names it and shows its odds as percentages', async () => {
  // The two 8s make the 16 below the chain's 16: the table's move is left, far ahead
  // of right (0.9%), the one other move in its world.
  const chain = [[16384, 8192, 4096, 2048], [16, 32, 64, 128], [8, 8, 4, 2], [2, 4, 2, 4]];
  await page.evaluate((board) => window.__ai2048.load(board, 400000), chain);
  await page.waitForFunction(() => document.querySelector('#tiles .tile[data-value="16384"]'));
  await settled();
  await page.click('#hint');
  await page.locator('#hint-values').waitFor({ state: 'visible' });
  const values = await page.locator('#hint-values .hint-value').evaluateAll((els) =>
    Object.fromEntries(els.map((el) => [el.dataset.dir, el.querySelector('.value').textContent])));
  // Up moves nothing; down slides the fixed tiles, out of the table's world.
  assert.deepEqual({ up: values.up, down: values.down, left: values.left }, { up: '–', down: '–', left: '100.00%' });
  assert.equal(values.right, '0.90%');
  const stats = await page.locator('#ai-stats').innerText();
  assert.match(stats, /^left: the endgame table snake8-16, 100\.00% to make its target, \d+ ms$/);
  assert.equal((await debug()).lastSearch.table_name, 'snake8-16');
  // A new game's board is the search's again.
  await page.click('#new-game');
  await page.waitForFunction(() => !document.querySelector('#tiles .tile[data-value="16384"]'));
  await settled();
  await page.click('#hint');
  await page.waitForFunction(() => /depth \d+, [\d,]+ nodes/.test(document.querySelector('#ai-stats').textContent));
});

test('autoplay plays at least 50 legal moves', async () => {
  await page.selectOption('#ai-time', '10');
  await page.locator('#speed').fill('10');
  const start = (await debug()).aiMoves;
  await page.click('#autoplay');
  await page.waitForFunction(
    (n) => window.__ai2048.aiMoves >= n || window.__ai2048.over,
    start + 60,
    { timeout: 120_000, polling: 100 },
  );
  await page.click('#autoplay');
  await page.waitForTimeout(300);
  const state = await settled();
  const moves = state.log.filter((m) => m.by === 'ai');
  assert.ok(moves.length >= 50, `only ${moves.length} AI moves`);
  for (const { board, dir } of moves) {
    const { dirs } = await api('/api/legal', { board });
    assert.ok(dirs.includes(dir), `${dir} is not legal on ${JSON.stringify(board)}`);
  }
  assert.ok(state.score > 0);
  assert.equal(Number(await page.locator('#score-value').innerText()), state.score);
  assert.ok(Number(await page.locator('#best').innerText()) >= state.score);
  assert.ok(tileCount(state.board) >= 3);
});

test('a screenshot for people to look at', async () => {
  await page.click('#hint');
  await page.locator('#hint-values').waitFor({ state: 'visible' });
  await page.waitForTimeout(400);
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, 'page.png');
  await page.screenshot({ path: file, fullPage: true });
  assert.deepEqual(pageErrors, [], 'the page logged no error');
});

// Presses arrow keys until one moves the board; returns the direction's key.
async function pressUntilMoved() {
  const { moves } = await debug();
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
    if ((await debug()).moves > moves) return key;
  }
  return null;
}

const WIN_BOARD = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]];

test('"You win!" at 2048 stops play until "Keep going"', async () => {
  await page.evaluate((board) => window.__ai2048.load(board, 20000), WIN_BOARD);
  await settled();
  assert.ok(await page.locator('#game-won').isHidden());
  await page.keyboard.press('ArrowLeft');
  await page.locator('#game-won').waitFor({ state: 'visible' });
  let state = await settled();
  assert.equal(state.board[0][0], 2048);
  assert.ok(state.won && !state.keepPlaying && !state.over);
  assert.match(await page.locator('#game-won').innerText(), /You win!/);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.waitForTimeout(2100); // the message fades in as the original's does
  await page.screenshot({ path: path.join(ARTIFACTS, 'won.png'), fullPage: true });

  // No key plays while the message shows.
  assert.equal(await pressUntilMoved(), null, 'a key played under "You win!"');
  await page.click('#keep-going');
  assert.ok(await page.locator('#game-won').isHidden());
  state = await debug();
  assert.ok(state.won && state.keepPlaying);
  assert.notEqual(await pressUntilMoved(), null, 'no key plays after "Keep going"');
  assert.ok(await page.locator('#game-won').isHidden(), 'the message came back');
});

test('autoplay stops at "You win!" and goes on after "Keep going"', async () => {
  await page.evaluate((board) => window.__ai2048.load(board, 20000), WIN_BOARD);
  await settled();
  await page.locator('#speed').fill('10');
  await page.click('#autoplay');
  await page.locator('#game-won').waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#autoplay').getAttribute('aria-pressed'), 'false');
  const atWin = (await settled()).aiMoves;
  await page.waitForTimeout(300);
  assert.equal((await debug()).aiMoves, atWin, 'autoplay went on under "You win!"');
  await page.click('#keep-going');
  await page.waitForFunction(
    (n) => window.__ai2048.aiMoves >= n || window.__ai2048.over,
    atWin + 5,
    { timeout: 60_000, polling: 100 },
  );
  assert.ok(await page.locator('#game-won').isHidden());
  await page.click('#autoplay');
  await page.waitForTimeout(300);
  await settled();
  assert.deepEqual(pageErrors, [], 'the page logged no error');
});

// Plays the ranked game out through the page (the first direction that moves, as the
// keys would): the game as it ends.
function playOut() {
  return page.evaluate(async () => {
    const dirs = ['left', 'down', 'right', 'up'];
    for (let moves = 0; moves < 5000 && !window.ai2048Ranked.state().over; moves++) {
      const turn = window.ai2048Ranked.state().turn;
      for (const dir of dirs) {
        await window.ai2048Ranked.move(dir);
        if (window.ai2048Ranked.state().turn !== turn || window.ai2048Ranked.state().over) break;
      }
    }
    return window.ai2048Ranked.state();
  });
}

test('a ranked game: register, play to the end, see it on the leaderboard; names are text', async () => {
  await page.goto(url);
  // A name written as HTML is refused, and the refusal shows as text.
  await page.fill('#ranked-name', '<img src=x id=injected>');
  await page.click('#ranked-register');
  await page.waitForFunction(() => document.querySelector('#ranked-status').textContent.includes('is not allowed'));
  assert.equal(await page.locator('#injected').count(), 0, 'no element was made from the name');
  // A name the server keeps, shown back as text.
  const name = `Ann ${Date.now() % 100000}`;
  await page.fill('#ranked-name', name);
  await page.click('#ranked-register');
  await page.waitForFunction((n) => document.querySelector('#ranked-who').textContent === `Playing as ${n}`, name);
  await page.click('#ranked-start');
  await page.waitForFunction(() => window.ai2048Ranked.state() !== null);
  const final = await playOut();
  assert.equal(final.over, true, 'the ranked game ended');
  await page.waitForFunction(() => document.querySelector('#ranked-status').textContent.startsWith('Game over'));
  // The board the page shows is the server's.
  const shown = await page.$$eval('#ranked-board .ranked-cell', (cells) => cells.map((c) => Number(c.textContent || 0)));
  assert.deepEqual(shown, final.board.flat());
  // On the leaderboard, its name as text, with a replay that checks out.
  await page.waitForFunction((id) => [...document.querySelectorAll('#ranked-leaders a')]
    .some((a) => a.href.includes(id)), final.id);
  const row = await page.evaluate((id) => {
    const link = [...document.querySelectorAll('#ranked-leaders a')].find((a) => a.href.includes(id));
    const cells = [...link.closest('tr').children].map((td) => td.textContent);
    return { cells, href: link.href };
  }, final.id);
  assert.equal(row.cells[1], name);
  assert.equal(Number(row.cells[2]), final.score);
  // "Humans only" says whose word it is.
  assert.match(await page.locator('#ranked-human-note').innerText(), /the server cannot tell who chose a move/);
  const replay = await fetch(row.href);
  assert.equal(replay.status, 200);
  assert.match(await replay.text(), /^ai2048-replay 1\nseed \d+\n/);
  // The browser logs the refused name's 400; nothing else.
  assert.deepEqual(pageErrors.filter((e) => !/status of 400/.test(e)), []);
});

// Whether `dir` changes `board` (a line moves when a tile has an empty cell, or its
// equal, ahead of it in the direction of the move).
function moves(board, dir) {
  const lines = [];
  for (let i = 0; i < 4; i++) {
    const row = board[i];
    const col = board.map((r) => r[i]);
    if (dir === 'left') lines.push(row);
    if (dir === 'right') lines.push([...row].reverse());
    if (dir === 'up') lines.push(col);
    if (dir === 'down') lines.push([...col].reverse());
  }
  return lines.some((line) => line.some((v, i) => i < 3
    && ((v === 0 && line[i + 1] !== 0) || (v !== 0 && v === line[i + 1]))));
}

// The game as the server has it.
async function serverGame(id) {
  const response = await fetch(`${url}/api/ranked/${id}`);
  assert.equal(response.status, 200);
  return response.json();
}

test('a ranked game goes on after a reload; a move whose answer is lost, or sent offline, is sent again and played once', async () => {
  await page.goto(url);
  // The player registered by the test before is kept.
  await page.waitForFunction(() => document.querySelector('#ranked-who').textContent.startsWith('Playing as'));
  await page.click('#ranked-start');
  await page.waitForFunction(() => window.ai2048Ranked.state() !== null && !window.ai2048Ranked.state().over);
  const movable = () => page.evaluate(() => window.ai2048Ranked.state())
    .then((g) => ['left', 'down', 'right', 'up'].find((d) => moves(g.board, d)));
  for (let turn = 0; turn < 3; turn++) {
    await page.evaluate((d) => window.ai2048Ranked.move(d), await movable());
  }
  const played = await page.evaluate(() => window.ai2048Ranked.state());
  assert.equal(played.turn, 3);

  // A reload: the page asks the server for its game, and plays on.
  await page.reload();
  await page.waitForFunction((id) => window.ai2048Ranked && window.ai2048Ranked.state()
    && window.ai2048Ranked.state().id === id, played.id);
  const resumed = await page.evaluate(() => window.ai2048Ranked.state());
  for (const key of ['id', 'board', 'score', 'turn', 'over']) assert.deepEqual(resumed[key], played[key], key);
  assert.match(await page.locator('#ranked-status').innerText(), /Your ranked game goes on at move 3/);
  const shown = await page.$$eval('#ranked-board .ranked-cell', (cells) => cells.map((c) => Number(c.textContent || 0)));
  assert.deepEqual(shown, played.board.flat());

  // The server plays the move, but its answer is lost on the way back: the page sends
  // the same move again, and the server answers it as before, played once.
  let sent = 0;
  await page.route('**/api/ranked/*/move', async (route) => {
    sent += 1;
    if (sent === 1) {
      await route.fetch();
      await route.abort('connectionreset');
    } else {
      await route.continue();
    }
  });
  const dir = await movable();
  const before = await serverGame(played.id);
  await page.evaluate((d) => window.ai2048Ranked.move(d), dir);
  await page.unroute('**/api/ranked/*/move');
  assert.equal(sent, 2, 'the move was sent again');
  let after = await serverGame(played.id);
  assert.equal(after.turn, before.turn + 1, 'played once');
  let state = await page.evaluate(() => window.ai2048Ranked.state());
  assert.equal(state.turn, after.turn);
  assert.deepEqual(state.board, after.board);
  assert.match(await page.locator('#ranked-status').innerText(), /Connected again/);

  // Offline for a while: the move waits, is sent again once the network is back, and
  // is played once.
  const offline = await movable();
  await browser.context.setOffline(true);
  const moving = page.evaluate((d) => window.ai2048Ranked.move(d), offline);
  await page.waitForFunction(() => /trying again in/.test(document.querySelector('#ranked-status').textContent));
  await page.waitForTimeout(1200);
  await browser.context.setOffline(false);
  await moving;
  after = await serverGame(played.id);
  assert.equal(after.turn, before.turn + 2, 'played once');
  state = await page.evaluate(() => window.ai2048Ranked.state());
  assert.deepEqual(state.board, after.board);

  // Played out, the game is forgotten: a reload resumes nothing.
  await playOut();
  assert.equal((await serverGame(played.id)).over, true);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#ranked-who').textContent.startsWith('Playing as'));
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.ai2048Ranked.state()), null);
  assert.equal(await page.evaluate(() => localStorage.getItem('ai2048-ranked-game')), null);
  // The lost answer and the offline requests are the only failures the browser logs.
  assert.deepEqual(pageErrors.filter((e) => !/status of 400|ERR_CONNECTION_RESET|ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)), []);
});

test('a registration whose answer is lost is sent again with its Idempotency-Key and gets its token; a new game past the open games\' cap resumes the latest and offers to end one', async () => {
  await page.goto(url);
  await page.evaluate(() => { localStorage.clear(); });
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#ranked-who').textContent.startsWith('Choose a name'));

  // The server registers the name, but its answer is lost: the page sends the same
  // registration again, with the same key, and gets the same token.
  const keys = [];
  await page.route('**/api/players', async (route) => {
    if (route.request().method() !== 'POST') {
      await route.continue();
      return;
    }
    keys.push(route.request().headers()['idempotency-key']);
    if (keys.length === 1) {
      await route.fetch();
      await route.abort('connectionreset');
    } else {
      await route.continue();
    }
  });
  const name = `Bo ${Date.now() % 100000}`;
  await page.fill('#ranked-name', name);
  await page.click('#ranked-register');
  await page.waitForFunction((n) => document.querySelector('#ranked-who').textContent === `Playing as ${n}`, name);
  await page.unroute('**/api/players');
  assert.equal(keys.length, 2, 'the registration was sent again');
  assert.match(keys[0], /^[0-9a-f]{32}$/);
  assert.equal(keys[1], keys[0], 'with the same Idempotency-Key');
  assert.equal(await page.locator('#ranked-status').innerText(), `Registered as ${name}.`);
  assert.equal(await page.evaluate(() => localStorage.getItem('ai2048-ranked-registration')), null,
    'the key is forgotten once the answer came');
  const player = await page.evaluate(() => JSON.parse(localStorage.getItem('ai2048-ranked-player')));
  assert.equal(player.name, name);
  // The token is the player's: it starts games, as many as the server allows (5).
  const auth = { Authorization: `Bearer ${player.token}` };
  let refused = null;
  for (let n = 0; n < 10 && !refused; n++) {
    const response = await fetch(`${url}/api/ranked`, { method: 'POST', headers: auth });
    if (response.status === 409) refused = await response.json();
    else assert.equal(response.status, 201);
  }
  assert.ok(refused, 'the cap on open games was reached');
  const open = refused.open_games;
  assert.equal(open.length, 5);

  // A new game from the page: refused, it resumes the latest open game and lists all.
  await page.click('#ranked-start');
  await page.waitForFunction((id) => window.ai2048Ranked.state() && window.ai2048Ranked.state().id === id, open[0]);
  assert.match(await page.locator('#ranked-status').innerText(),
    /You have 5 open ranked games, the most you may have: end one below to start a new one\. Your latest goes on at move 0/);
  const listed = await page.$$eval('#ranked-open .ranked-open-game', (items) => items.map((i) => i.dataset.game));
  assert.deepEqual(listed, open);
  assert.equal(await page.locator('#ranked-open').isVisible(), true);
  // Another one resumed from the list.
  await page.locator(`#ranked-open [data-game="${open[2]}"] .ranked-resume`).click();
  await page.waitForFunction((id) => window.ai2048Ranked.state().id === id, open[2]);
  // One ended from the list: it is over (resigned), and a new game starts.
  await page.locator(`#ranked-open [data-game="${open[4]}"] .ranked-end`).click();
  await page.waitForFunction(() => /ended with 0 points/.test(document.querySelector('#ranked-status').textContent));
  const ended = await serverGame(open[4]);
  assert.equal(ended.over, true);
  assert.equal(ended.end, 'resigned');
  assert.equal(await page.locator(`#ranked-open [data-game="${open[4]}"]`).count(), 0);
  await page.click('#ranked-start');
  await page.waitForFunction((ids) => window.ai2048Ranked.state() && !ids.includes(window.ai2048Ranked.state().id), open);
  assert.match(await page.locator('#ranked-status').innerText(), /every move is saved/);
  assert.equal(await page.locator('#ranked-open').isVisible(), false);

  // A registration left without an answer when the page closed is sent again on the
  // next load, with its key.
  const pendingName = `Cy ${Date.now() % 100000}`;
  const pendingKey = 'ab'.repeat(16);
  await page.evaluate(([n, k]) => {
    localStorage.clear();
    localStorage.setItem('ai2048-ranked-registration', JSON.stringify({ name: n, key: k }));
  }, [pendingName, pendingKey]);
  const sentKeys = [];
  await page.route('**/api/players', async (route) => {
    // The page also reads the engine's players (GET): only registrations count.
    if (route.request().method() === 'POST') sentKeys.push(route.request().headers()['idempotency-key']);
    await route.continue();
  });
  await page.reload();
  await page.waitForFunction((n) => document.querySelector('#ranked-who').textContent === `Playing as ${n}`, pendingName);
  await page.unroute('**/api/players');
  assert.deepEqual(sentKeys, [pendingKey]);
  // The lost answer and the refused new game are the only failures the browser logs.
  assert.deepEqual(pageErrors.filter((e) => !/status of 400|status of 409|ERR_CONNECTION_RESET|ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)), []);
});
