// The static site (scripts/build-site) in a real headless Chromium, served by a plain
// static file server (python3 -m http.server) with no ai2048 process anywhere: it plays
// with the keys, the AI plays in a Web Worker without freezing the page, a new game
// cancels a search under way, autoplay with the hand-made heuristic reaches 2048, the
// network downloads with its progress, is checked, cached and played with, an undo or
// a new game mid-search keeps the network the AI's worker decoded, the AI plays on
// after its module panics, the site reloads offline, a deploy under an open page mixes
// no versions, and a full storage quota does not fail the network. No request goes to
// /api/. Speed figures are printed for the README (lines starting "figure:").
//
// Environment: SITE_DIR, the built site (default target/site); SPEED_FILE, the native
// searches to time the browser's against (default target/wasm/speed.json, from
// `cargo run --release -p ai2048-wasm --example speed`); AI2048_ARTIFACTS, where the
// screenshot goes (default target/web-artifacts); CHROMIUM, the browser.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ARTIFACTS, ROOT, launch, serveStatic } from './browser.mjs';

const SITE = path.resolve(ROOT, process.env.SITE_DIR || 'target/site');

let server = null;
let url = null;
let browser = null;
let context = null;
let page = null;
let pageErrors = [];
const requests = [];

const debug = () => page.evaluate(() => JSON.parse(JSON.stringify(window.__ai2048)));
const maxTile = (board) => Math.max(...board.flat());

async function load() {
  await page.goto(`${url}/`);
  await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready, null, { timeout: 60_000 });
}

before(async () => {
  assert.ok(existsSync(path.join(SITE, 'index.html')), `no site in ${SITE}: run scripts/build-site ${SITE}`);
  server = await serveStatic(SITE);
  ({ url } = server);
  browser = await launch();
  ({ context, page } = browser);
  pageErrors = browser.errors;
  context.on('request', (r) => requests.push(r.url()));
});

after(async () => {
  try {
    if (browser) await browser.close();
  } finally {
    if (server) server.stop();
  }
});

test('the static site starts the WebAssembly engine and the AI at once', async () => {
  const started = Date.now();
  await load();
  const state = await debug();
  assert.equal(state.engine, 'wasm');
  assert.equal(state.board.flat().filter((v) => v).length, 2);
  assert.match(await page.locator('#footer-engine').innerText(), /WebAssembly/);
  // The ranked games need a server: the static site hides them.
  assert.equal(await page.locator('#ranked').isVisible(), false);
  // The first AI move: the hint at the default time.
  await page.click('#hint');
  await page.locator('#hint-values').waitFor({ state: 'visible' });
  console.log(`figure: page load to the first AI move (a hint at the default 50 ms): ${Date.now() - started} ms`);
  const search = (await debug()).lastSearch;
  assert.ok(['up', 'down', 'left', 'right'].includes(search.dir), JSON.stringify(search));
  assert.ok(search.nodes > 0);
});

test('?seed=N starts the game of that seed, the same every time', async () => {
  const boards = [];
  for (let i = 0; i < 2; i += 1) {
    await page.goto(`${url}/?seed=7`);
    await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready);
    const state = await debug();
    assert.equal(state.seed, 7);
    boards.push(state.board);
  }
  assert.deepEqual(boards[0], boards[1]);
  await page.goto(`${url}/?seed=x`);
  await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready);
  assert.match((await debug()).errors.join(' '), /\?seed=x: a seed is a whole number/);
  await load();
});

test('a link with a 16-digit seed, up to 2^53 - 1, opens that game; a larger one is refused', async () => {
  const largest = '9007199254740991'; // 2^53 - 1
  for (const seed of [largest, '1234567890123456']) {
    await page.goto(`${url}/?seed=${seed}`);
    await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready);
    const state = await debug();
    assert.equal(String(state.seed), seed);
    assert.deepEqual(state.errors, []);
    assert.match(await page.locator('#seed').innerText(), new RegExp(`game ${seed},`));
    // The board is the module's game of that very seed.
    const dealt = await page.evaluate(async (s) => {
      const wasm = await import(new URL('pkg/ai2048_wasm.js', document.baseURI).href);
      await wasm.default({ module_or_path: new URL('pkg/ai2048_wasm_bg.wasm', document.baseURI) });
      return JSON.parse(wasm.new_game(`{"seed":${s}}`));
    }, seed);
    assert.equal(String(dealt.seed), seed);
    assert.deepEqual(state.board, dealt.board);
  }
  await page.goto(`${url}/?seed=9007199254740992`);
  await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready);
  assert.match((await debug()).errors.join(' '), /\?seed=9007199254740992: a seed is a whole number from 0 to 9007199254740991/);
  await load();
});

// Presses the arrow keys until one moves the board: the page's state before and after.
async function pressUntilMoved() {
  const before = await debug();
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
    if ((await debug()).moves > before.moves) break;
  }
  return { before, after: await debug() };
}

test('the keys move the tiles', async () => {
  const { before: { moves }, after: state } = await pressUntilMoved();
  assert.ok(state.moves > moves, 'a key moved the board');
  assert.equal(state.board.flat().filter((v) => v).length >= 2, true);
});

test('a new game cancels the search under way', async () => {
  await page.selectOption('#ai-time', '1000');
  const before = await debug();
  await page.click('#hint');
  await page.waitForTimeout(100);
  const clicked = Date.now();
  await page.click('#new-game');
  await page.waitForFunction((seed) => window.__ai2048.seed !== seed, before.seed);
  // The hint's search was dropped: its button is free again well before its second.
  await page.waitForFunction(() => !document.getElementById('hint').disabled, null, { timeout: 900 });
  assert.ok(Date.now() - clicked < 900);
  assert.equal(await page.locator('#hint-values').isVisible(), false);
  assert.deepEqual((await debug()).errors, []);
  // The AI works on after it: a hint on the new game.
  await page.selectOption('#ai-time', '10');
  await page.click('#hint');
  await page.locator('#hint-values').waitFor({ state: 'visible' });
});

// The page's AI searches for a time (10 ms a move here), not to a depth, so how deep it
// sees, and so the game, depends on the machine: on a slow or busy one the heuristic
// can lose before 2048 (a CI run saw it die at 1024). Each try is a seeded game from
// its start; the test asks for 2048 in one of three.
const AUTOPLAY_SEEDS = [2048, 2049, 2050];

test('autoplay with the heuristic reaches 2048, and the page never freezes', async () => {
  const ends = [];
  let state = null;
  let gap = { max: 0 };
  for (const seed of AUTOPLAY_SEEDS) {
    await page.goto(`${url}/?seed=${seed}`);
    await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready);
    await page.selectOption('#ai-time', '10');
    await page.locator('#speed').fill('10');
    // The longest the page's thread was busy between two timer ticks.
    await page.evaluate(() => {
      window.__gaps = { last: performance.now(), max: 0 };
      window.__ticker = setInterval(() => {
        const now = performance.now();
        if (now - window.__gaps.last > window.__gaps.max) {
          window.__gaps.max = now - window.__gaps.last;
          window.__gaps.at = window.__ai2048.aiMoves;
        }
        window.__gaps.last = now;
      }, 10);
    });
    await page.click('#autoplay');
    await page.waitForFunction(
      () => window.__ai2048.won || window.__ai2048.over,
      null,
      { timeout: 240_000, polling: 250 },
    );
    // The ticker stops first: reading the page's state (its whole log of moves) keeps
    // the page's thread busy for a while.
    const gaps = await page.evaluate(() => { clearInterval(window.__ticker); return window.__gaps; });
    if (gaps.max > gap.max) gap = { ...gaps, seed };
    state = await debug();
    ends.push(`game ${seed}: ${maxTile(state.board)} in ${state.aiMoves} AI moves`);
    if (state.won) break;
  }
  assert.ok(maxTile(state.board) >= 2048, `autoplay ended below 2048 in every game: ${ends.join('; ')}`);
  assert.ok(state.won);
  assert.equal(await page.locator('#game-won').isVisible(), true);
  console.log(`figure: autoplay to 2048: ${ends.join('; ')}; longest freeze of the page ${gap.max.toFixed(0)} ms`);
  assert.ok(gap.max < 250, `the page froze for ${gap.max} ms, after AI move ${gap.at} of game ${gap.seed}`);
  assert.ok(state.aiMoves > 500);
});

test('the network downloads with its progress, is checked, and plays', async () => {
  assert.equal(await page.locator('#stronger-box').isVisible(), true);
  await page.click('#retry-won');
  await page.check('#stronger');
  await page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
  const { network } = await debug();
  assert.equal(network.cached, false);
  assert.ok(network.games > 0 && network.weights > 1e6, JSON.stringify(network));
  console.log(`figure: network download ${network.fetchMs.toFixed(0)} ms (${(network.bytes / 1e6).toFixed(1)} MB, from 127.0.0.1), decode ${network.loadMs.toFixed(0)} ms`);
  assert.match(await page.locator('#network-status').innerText(), /network/);
  const start = (await debug()).aiMoves;
  await page.selectOption('#ai-time', '10');
  await page.click('#autoplay');
  await page.waitForFunction((n) => window.__ai2048.aiMoves >= n, start + 30, { timeout: 60_000 });
  await page.click('#autoplay');
});

test('a second visit reads the network from the cache', async () => {
  await load();
  await page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
  const { network } = await debug();
  assert.equal(network.cached, true);
  assert.equal(await page.locator('#stronger').isChecked(), true);
  console.log(`figure: network from the cache ${network.fetchMs.toFixed(0)} ms, decode ${network.loadMs.toFixed(0)} ms`);
});

test('an undo or a new game mid-search keeps the network: the next search decodes nothing', async () => {
  await page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
  const decodes = await page.evaluate(() => window.__ai2048.decodes());
  assert.deepEqual(await page.evaluate(() => window.__ai2048.workerStats()), { decodes: 1, instances: 1 });
  for (const cancel of ['#undo', '#new-game']) {
    if (cancel === '#undo') {
      await pressUntilMoved();
      assert.equal(await page.locator('#undo').isDisabled(), false);
    }
    await page.selectOption('#ai-time', '1000');
    await page.click('#hint');
    await page.waitForTimeout(200);
    const clicked = Date.now();
    await page.click(cancel);
    await page.waitForFunction(() => !document.getElementById('hint').disabled, null, { timeout: 900 });
    // The next search: by the same worker, with the network it decoded before.
    await page.selectOption('#ai-time', '10');
    await page.click('#hint');
    await page.locator('#hint-values').waitFor({ state: 'visible' });
    const answered = Date.now() - clicked;
    console.log(`figure: ${cancel.slice(1)} during a 1 s search with the network, to the next search's answer: ${answered} ms`);
    assert.equal(await page.evaluate(() => window.__ai2048.decodes()), decodes, 'no network decoded again');
    assert.deepEqual(await page.evaluate(() => window.__ai2048.workerStats()), { decodes: 1, instances: 1 }, 'the same worker');
    assert.ok((await debug()).lastSearch.nodes > 0);
    assert.ok(answered < 2500, `${answered} ms`);
  }
  assert.deepEqual((await debug()).errors, []);
});

test('after a panic of the module, or a failure of its worker, the AI plays on with its network, and the game goes on', async () => {
  await page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
  const stats = await page.evaluate(() => window.__ai2048.workerStats());
  await page.click('#new-game');
  await page.selectOption('#ai-time', '10');
  await page.locator('#speed').fill('10');
  await page.click('#autoplay');
  const start = (await debug()).aiMoves;
  await page.waitForFunction((n) => window.__ai2048.aiMoves >= n, start + 5, { timeout: 60_000 });
  await page.evaluate(() => window.__ai2048.panicNextSearch());
  await page.waitForFunction(() => window.__ai2048.errors.some((e) => e.includes('crashed')), null, { timeout: 10_000 });
  const crashedAt = (await debug()).aiMoves;
  await page.waitForFunction((n) => window.__ai2048.aiMoves >= n, crashedAt + 30, { timeout: 60_000 });
  await page.click('#autoplay');
  const { errors } = await debug();
  assert.equal(errors.length, 1, errors.join('; '));
  assert.match(errors[0], /^The AI's module crashed \(panicked at .*: a panic asked for by panic_next_request\); it started again with the network it had, and the AI plays on\.$/);
  // A new instance of the module, with the network decoded into it again.
  assert.deepEqual(await page.evaluate(() => window.__ai2048.workerStats()),
    { decodes: stats.decodes + 1, instances: stats.instances + 1 });
  const search = (await debug()).lastSearch;
  assert.ok(search.nodes > 0 && search.dir, JSON.stringify(search));

  // The worker itself fails (an error it does not catch): a new worker takes its
  // place, is given the network again, and the AI plays on.
  const decodes = await page.evaluate(() => window.__ai2048.decodes());
  const worker = page.workers().filter((w) => w.url().endsWith('/worker.js')).pop();
  await page.click('#autoplay');
  await page.waitForFunction((n) => window.__ai2048.aiMoves >= n, crashedAt + 35, { timeout: 60_000 });
  await worker.evaluate(() => setTimeout(() => { throw new Error('a failure asked for by the test'); }, 0));
  await page.waitForFunction(() => window.__ai2048.errors.length === 2, null, { timeout: 10_000 });
  const failedAt = (await debug()).aiMoves;
  await page.waitForFunction((n) => window.__ai2048.aiMoves >= n, failedAt + 30, { timeout: 60_000 });
  await page.click('#autoplay');
  const after = (await debug()).errors;
  assert.equal(after.length, 2, after.join('; '));
  assert.match(after[1], /^The AI's worker failed \(.*a failure asked for by the test\); a new one took its place with the network it had, and the AI plays on\.$/);
  assert.equal(await page.evaluate(() => window.__ai2048.decodes()), decodes + 1);
  assert.deepEqual(await page.evaluate(() => window.__ai2048.workerStats()), { decodes: 1, instances: 1 }, 'a new worker');

  // The page's own instance of the module (moves and new games) panics at a move: a
  // new instance plays it, and the game goes on.
  await page.evaluate(() => window.__ai2048.panicNextMove());
  const { before: { moves }, after: played } = await pressUntilMoved();
  assert.ok(played.moves > moves, 'the move was played');
  assert.equal(played.errors.length, 3, played.errors.join('; '));
  assert.match(played.errors[2], /^The game's module crashed \(panicked at .*: a panic asked for by panic_next_request\); it started again, and the game goes on\.$/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
});

test('the site reloads and plays offline', async () => {
  // The service worker has the site's files once it controls the page.
  await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller, null, { timeout: 30_000 });
  await context.setOffline(true);
  try {
    await load();
    const state = await debug();
    assert.equal(state.engine, 'wasm');
    await page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
    await page.click('#hint');
    await page.locator('#hint-values').waitFor({ state: 'visible' });
  } finally {
    await context.setOffline(false);
  }
});

// The files the service worker keeps (sw.js's FILES but './', network.json aside).
const KEPT = [
  'index.html', 'style.css', 'app.js', 'engine.js', 'network.js', 'worker.js', 'ranked.js',
  'ranked.css', 'favicon.svg', 'pkg/ai2048_wasm.js', 'pkg/ai2048_wasm_bg.wasm',
];
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// Deploys a changed site into `dir`, as a new build would: every file the service
// worker keeps differs (the module's binary by a custom section of its own), the
// worker and the module's glue say `__deploy = 2`, and sw.js has the new version.
function deployAgain(dir) {
  const append = (file, text) => appendFileSync(path.join(dir, file), text);
  for (const file of ['style.css', 'app.js', 'engine.js', 'network.js', 'ranked.js', 'ranked.css']) {
    append(file, '\n/* deploy 2 */\n');
  }
  append('index.html', '<!-- deploy 2 -->\n');
  append('favicon.svg', '<!-- deploy 2 -->\n');
  append('worker.js', '\nself.__deploy = 2;\n');
  append('pkg/ai2048_wasm.js', '\nexport const __deploy = 2;\n');
  // A custom section "deploy" holding "2": id 0, size 8, the name's length and name, "2".
  append('pkg/ai2048_wasm_bg.wasm', Buffer.from([0, 8, 6, ...Buffer.from('deploy'), 0x32]));
  execFileSync(path.join(ROOT, 'scripts/stamp-site'), [dir], { stdio: 'ignore' });
}

// The SHA-256 of each of KEPT as `where` (a page, or a worker) fetches it.
function fetchedHashes(where) {
  return where.evaluate(async (files) => {
    const hex = (digest) => Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    const out = {};
    for (const file of files) {
      const bytes = await (await fetch(new URL(file, self.location.href))).arrayBuffer();
      out[file] = hex(await crypto.subtle.digest('SHA-256', bytes));
    }
    return out;
  }, KEPT);
}

test('a new deploy under an open page mixes no versions: the page and its workers keep theirs, a reload takes the new one whole', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ai2048-deploy-'));
  cpSync(SITE, dir, { recursive: true, filter: (src) => !src.endsWith('network.np') });
  const deployed = await serveStatic(dir);
  const other = await launch(); // a profile of its own: a service worker of its own
  try {
    const open = async () => {
      await other.page.goto(`${deployed.url}/`);
      await other.page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready, null, { timeout: 60_000 });
    };
    const hint = async () => {
      await other.page.click('#hint');
      await other.page.locator('#hint-values').waitFor({ state: 'visible' });
    };
    await open();
    await other.page.waitForFunction(async () => (await navigator.serviceWorker.ready).active !== null);
    await open(); // now served by the service worker
    assert.ok(await other.page.evaluate(() => navigator.serviceWorker.controller !== null));
    const first = Object.fromEntries(KEPT.map((f) => [f, sha256(readFileSync(path.join(dir, f)))]));
    deployAgain(dir);
    const second = Object.fromEntries(KEPT.map((f) => [f, sha256(readFileSync(path.join(dir, f)))]));
    for (const file of KEPT) assert.notEqual(first[file], second[file], file);

    // The page checks for an update (as the browser does by itself) and the new
    // version takes over the service worker, under the open page.
    await other.page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    await other.page.locator('#update').waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(await fetchedHashes(other.page), first, 'the open page is served its own version');
    // A worker it starts now is of its version, with the module of its version.
    const started = other.page.waitForEvent('worker');
    await other.page.evaluate(() => {
      window.__probe = new Worker(new URL('worker.js', document.baseURI), { type: 'module' });
    });
    const probe = await started;
    await probe.evaluate(() => import(new URL('pkg/ai2048_wasm.js', self.location.href).href));
    assert.equal(await probe.evaluate(() => self.__deploy), undefined, 'the old worker.js');
    assert.equal(await probe.evaluate(async () => (await import(new URL('pkg/ai2048_wasm.js', self.location.href).href)).__deploy), undefined, 'the old module');
    assert.deepEqual(await fetchedHashes(probe), first, 'the worker is served the page\'s version');
    await other.page.evaluate(() => window.__probe.terminate());
    await hint(); // and the AI plays on

    // A reload takes the new version, whole.
    const reloaded = other.page.waitForEvent('worker');
    await other.page.click('#update-reload');
    await other.page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready, null, { timeout: 60_000 });
    assert.deepEqual(await fetchedHashes(other.page), second, 'the reloaded page is served the new version');
    const worker = await reloaded;
    assert.equal(await worker.evaluate(() => self.__deploy), 2, 'the new worker.js');
    assert.deepEqual(await fetchedHashes(worker), second);
    assert.equal(await other.page.locator('#update').isVisible(), false);
    await hint();
    // The old version's files are dropped once no page uses them.
    await open();
    await other.page.waitForFunction(async () => (await caches.keys())
      .filter((k) => k.startsWith('ai2048-site-') && k !== 'ai2048-site-clients').length === 1, null, { timeout: 10_000 });
    assert.deepEqual(other.errors, [], 'the page logged no error');
  } finally {
    await other.close();
    deployed.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a full storage quota keeps the network out of the cache, not out of the AI', async () => {
  const other = await launch(); // a profile of its own: an empty cache
  try {
    await other.page.goto(`${url}/`);
    await other.page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready, null, { timeout: 60_000 });
    // Room for the site's files, not for the network.
    const cdp = await other.context.newCDPSession(other.page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: url, quotaSize: 10_000_000 });
    for (let visit = 0; visit < 2; visit += 1) {
      if (visit > 0) {
        await other.page.reload();
        await other.page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready, null, { timeout: 60_000 });
      } else {
        await other.page.check('#stronger');
      }
      await other.page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
      const { network, errors } = await other.page.evaluate(() => JSON.parse(JSON.stringify(window.__ai2048)));
      assert.equal(network.cached, false, 'downloaded again: the cache could not keep it');
      assert.equal(network.unkept, "the browser's storage for this site is full");
      assert.deepEqual(errors, []);
      assert.match(await other.page.locator('#network-status').innerText(),
        /The AI plays with the network .* It is not kept for your next visit: the browser's storage for this site is full\./);
      await other.page.selectOption('#ai-time', '10');
      await other.page.click('#hint');
      await other.page.locator('#hint-values').waitFor({ state: 'visible' });
    }
    assert.deepEqual(other.errors, []);
  } finally {
    await other.close();
  }
});

test('the searches in Chromium find what native finds, node for node; their speed', async (t) => {
  const file = path.resolve(ROOT, process.env.SPEED_FILE || 'target/wasm/speed.json');
  if (!existsSync(file)) {
    t.skip(`no ${file} (cargo run --release -p ai2048-wasm --example speed)`);
    return;
  }
  const native = JSON.parse(readFileSync(file, 'utf8'));
  await page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
  for (const [name, search] of Object.entries(native.searches)) {
    const got = await page.evaluate(async ({ positions, ai, depth }) => {
      const ask = (board) => window.__ai2048.best({ board, ai, depth });
      await ask(positions[0]); // the player is made, as natively, before the clock starts
      const dirs = [];
      let nodes = 0;
      const started = performance.now();
      for (const board of positions) {
        const best = await ask(board);
        nodes += best.nodes;
        dirs.push(best.dir);
      }
      return { dirs, nodes, ms: performance.now() - started };
    }, { positions: native.positions, ai: search.ai, depth: search.depth });
    assert.deepEqual(got.dirs, search.dirs, `${name}: the moves`);
    assert.equal(got.nodes, search.nodes, `${name}: the nodes`);
    const rate = (r) => (r.nodes / r.ms / 1e3).toFixed(2);
    if (native.build !== 'release') {
      console.log(`${name} search: the same moves and nodes as native; no speed figure (native is a ${native.build} build)`);
      continue;
    }
    console.log(`figure: ${name} search, ${native.positions.length} positions at depth ${search.depth}, one thread: `
      + `Chromium ${rate(got)} M nodes/s (${got.ms.toFixed(0)} ms), native ${rate(search)} M nodes/s `
      + `(${search.ms.toFixed(0)} ms): ${((100 * search.ms) / got.ms).toFixed(0)}% of native`);
  }
});

test('the switch turned off goes back to the heuristic, and stays off on reload', async () => {
  await page.uncheck('#stronger');
  await page.waitForFunction(() => window.__ai2048.network === null);
  assert.match(await page.locator('#network-status').innerText(), /heuristic/);
  await page.selectOption('#ai-time', '10');
  await page.click('#hint');
  await page.locator('#hint-values').waitFor({ state: 'visible' });
  await load();
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#stronger').isChecked(), false);
  assert.equal((await debug()).network, null);
  // On again, for the screenshot.
  await page.check('#stronger');
  await page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
  await page.click('#hint');
  await page.locator('#hint-values').waitFor({ state: 'visible' });
});

test('a screenshot for people to look at; no request to /api/', async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'site.png'), fullPage: true });
  const api = requests.filter((r) => new URL(r).pathname.includes('/api/'));
  assert.deepEqual(api, [], 'the static site asks no API');
  assert.deepEqual(pageErrors, [], 'the page logged no error');
});
