// The static site (scripts/build-site) in a real headless Chromium, served by a plain
// static file server (python3 -m http.server) with no ai2048 process anywhere: it plays
// with the keys, the AI plays in a Web Worker without freezing the page, a new game
// cancels a search under way, autoplay with the hand-made heuristic reaches 2048, the
// network downloads with its progress, is checked, cached and played with, and the
// site reloads offline. No request goes to /api/. Speed figures are printed for the
// README (lines starting "figure:").
//
// Environment: SITE_DIR, the built site (default target/site); AI2048_ARTIFACTS,
// where the screenshot goes (default target/web-artifacts); CHROMIUM, the browser.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { ARTIFACTS, ROOT, launch } from './browser.mjs';

const SITE = path.resolve(ROOT, process.env.SITE_DIR || 'target/site');

let server = null;
let url = null;
let browser = null;
let context = null;
let page = null;
let pageErrors = [];
const requests = [];

function stopServer() {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
}
process.on('exit', stopServer);

// Starts python3 -m http.server on a free port, serving SITE; resolves to its address.
function startServer() {
  return new Promise((resolve, reject) => {
    const args = ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', SITE, '0'];
    const child = spawn('python3', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    server = child;
    const timer = setTimeout(() => reject(new Error('no address from python3 -m http.server in 30 s')), 30_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const found = /port (\d+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${found[1]}`);
      }
    });
    child.stderr.resume();
  });
}

const debug = () => page.evaluate(() => JSON.parse(JSON.stringify(window.__ai2048)));
const maxTile = (board) => Math.max(...board.flat());

async function load() {
  await page.goto(`${url}/`);
  await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready, null, { timeout: 60_000 });
}

before(async () => {
  assert.ok(existsSync(path.join(SITE, 'index.html')), `no site in ${SITE}: run scripts/build-site ${SITE}`);
  url = await startServer();
  browser = await launch();
  ({ context, page } = browser);
  pageErrors = browser.errors;
  context.on('request', (r) => requests.push(r.url()));
});

after(async () => {
  try {
    if (browser) await browser.close();
  } finally {
    stopServer();
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

test('the keys move the tiles', async () => {
  const { moves } = await debug();
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
    if ((await debug()).moves > moves) break;
  }
  const state = await debug();
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

test('autoplay with the heuristic reaches 2048, and the page never freezes', async () => {
  await page.selectOption('#ai-time', '10');
  await page.locator('#speed').fill('10');
  // The longest the page's thread was busy between two timer ticks.
  await page.evaluate(() => {
    window.__gaps = { last: performance.now(), max: 0 };
    window.__ticker = setInterval(() => {
      const now = performance.now();
      window.__gaps.max = Math.max(window.__gaps.max, now - window.__gaps.last);
      window.__gaps.last = now;
    }, 10);
  });
  await page.click('#autoplay');
  await page.waitForFunction(
    () => window.__ai2048.won || window.__ai2048.over,
    null,
    { timeout: 240_000, polling: 250 },
  );
  const state = await debug();
  const gap = await page.evaluate(() => { clearInterval(window.__ticker); return window.__gaps.max; });
  assert.ok(maxTile(state.board) >= 2048, `autoplay ended at ${maxTile(state.board)}`);
  assert.ok(state.won);
  assert.equal(await page.locator('#game-won').isVisible(), true);
  console.log(`figure: autoplay to 2048 in ${state.aiMoves} AI moves; longest freeze of the page ${gap.toFixed(0)} ms`);
  assert.ok(gap < 250, `the page froze for ${gap} ms`);
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

test('a screenshot for people to look at; no request to /api/', async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'site.png'), fullPage: true });
  const api = requests.filter((r) => new URL(r).pathname.includes('/api/'));
  assert.deepEqual(api, [], 'the static site asks no API');
  assert.deepEqual(pageErrors, [], 'the page logged no error');
});
