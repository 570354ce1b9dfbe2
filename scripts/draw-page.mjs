// Takes the picture of the web page in the guide and the README (docs/img/page.png):
// the page of `ai2048 serve` in headless Chromium, the AI on autoplay from a fixed
// seed for a while, then paused, and a screenshot of the top of the page.
//
//   node scripts/draw-page.mjs AI2048_BIN OUT.png [SEED] [SECONDS]
//
// Defaults: seed 1, 45 s of autoplay at the page's default time a move (on a busy
// machine the game gets less far). Uses the browser tests' Chromium and
// playwright-core (scripts/test-web --setup installs it) with a scores database of
// its own in a temporary folder. It is how docs/img/page.png was made:
//
//   node scripts/draw-page.mjs target/release/ai2048 docs/img/page.png 1 45
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { launch } from '../crates/web/browser-tests/browser.mjs';

const [bin, out, seedArg, secondsArg] = process.argv.slice(2);
if (!bin || !out) {
  console.error('usage: node scripts/draw-page.mjs AI2048_BIN OUT.png [SEED] [SECONDS]');
  process.exit(2);
}
const seed = Number(seedArg || 1);
const seconds = Number(secondsArg || 45);

const data = mkdtempSync(path.join(tmpdir(), 'ai2048-page-'));
const server = spawn(path.resolve(bin), ['serve', '--port', '0', '--db', path.join(data, 'scores.db')], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
const stopServer = () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
};
process.on('exit', () => { stopServer(); rmSync(data, { recursive: true, force: true }); });
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no address from ai2048 serve in 60 s')), 60_000);
  const look = (line) => {
    const found = /http:\/\/[0-9.]+:\d+/.exec(line);
    if (found) { clearTimeout(timer); resolve(found[0]); }
  };
  createInterface({ input: server.stdout }).on('line', look);
  createInterface({ input: server.stderr }).on('line', look);
});

const browser = await launch();
const { page } = browser;
try {
  await page.setViewportSize({ width: 900, height: 900 });
  await page.goto(`${url}/?seed=${seed}`);
  await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready, null, { timeout: 60_000 });
  await page.locator('#speed').fill('10');
  await page.click('#autoplay');
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const state = await page.evaluate(() => ({ over: window.__ai2048.over, won: window.__ai2048.won, keep: window.__ai2048.keepPlaying }));
    if (state.over) break;
    if (state.won && !state.keep) await page.click('#keep-going');
    await page.waitForTimeout(500);
  }
  await page.click('#autoplay');
  await page.waitForTimeout(1500);
  await page.click('#hint');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: out });
  const state = await page.evaluate(() => ({ score: window.__ai2048.score, moves: window.__ai2048.aiMoves, board: window.__ai2048.board }));
  console.log(`${out}: seed ${seed}, after ${state.moves} moves, score ${state.score}, board ${JSON.stringify(state.board)}`);
} finally {
  await browser.close();
  stopServer();
}
