// The AI's strength in the browser: one game of autoplay on the static site, in
// headless Chromium, with the network, at the page's time per move, from a fixed seed
// (the page's ?seed=N), through "You win!" and "Keep going" to the end. A benchmark,
// not a test: it prints the game's score, largest tile, moves and time as JSON.
//
//   node crates/web/browser-tests/strength.mjs [SITE_DIR] [SEED] [TIME_MS]
//
// Defaults: target/site, seed 1, 50 ms (the page's default). The screenshot of the
// game's end goes to target/web-artifacts/strength.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { ARTIFACTS, ROOT, launch, serveStatic } from './browser.mjs';

const [siteArg, seedArg, timeArg] = process.argv.slice(2);
const site = path.resolve(ROOT, siteArg || 'target/site');
const seed = Number(seedArg || 1);
const timeMs = String(timeArg || 50);

const server = await serveStatic(site);
const browser = await launch();
const { page } = browser;
try {
  await page.goto(`${server.url}/?seed=${seed}`);
  await page.waitForFunction(() => window.__ai2048 && window.__ai2048.ready, null, { timeout: 60_000 });
  await page.check('#stronger');
  await page.waitForFunction(() => window.__ai2048.network, null, { timeout: 120_000 });
  await page.selectOption('#ai-time', timeMs);
  await page.locator('#speed').fill('10');
  const started = Date.now();
  await page.click('#autoplay');
  let lastReport = 0;
  for (;;) {
    const state = await page.evaluate(() => {
      const d = window.__ai2048;
      return {
        over: d.over, won: d.won, keepPlaying: d.keepPlaying, score: d.score, moves: d.aiMoves,
        max: Math.max(...d.board.flat()), errors: d.errors.length,
      };
    });
    if (state.over) break;
    if (state.won && !state.keepPlaying) await page.click('#keep-going');
    if (Date.now() - lastReport > 60_000) {
      lastReport = Date.now();
      console.error(`${((Date.now() - started) / 1000).toFixed(0)} s: ${state.moves} moves, score ${state.score}, largest ${state.max}`);
    }
    await page.waitForTimeout(500);
  }
  const wall = (Date.now() - started) / 1000;
  const end = await page.evaluate(() => {
    const d = window.__ai2048;
    return { seed: d.seed, score: d.score, moves: d.aiMoves, board: d.board, errors: d.errors };
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'strength.png'), fullPage: true });
  console.log(JSON.stringify({
    seed: end.seed,
    time_ms: Number(timeMs),
    score: end.score,
    max_tile: Math.max(...end.board.flat()),
    moves: end.moves,
    seconds: wall,
    ms_per_move: (1000 * wall) / end.moves,
    errors: end.errors,
  }));
} finally {
  await browser.close();
  server.stop();
}
