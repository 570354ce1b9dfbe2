// What the browser tests share: Debian's headless Chromium, launched on a profile of
// its own, and the page's errors collected; a plain static file server for the site.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { chromium } from 'playwright-core';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const ARTIFACTS = path.resolve(ROOT, process.env.AI2048_ARTIFACTS || 'target/web-artifacts');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// Without the networking flags, Chromium hangs on a closed network.
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// Launches Chromium on a fresh profile: `{context, page, errors, close}`, where
// `errors` gathers the page's uncaught errors and console errors, and `close()` ends
// the browser and removes the profile.
export async function launch() {
  const profile = mkdtempSync(path.join(tmpdir(), 'ai2048-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 620, height: 1180 },
  });
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const close = async () => {
    try {
      await context.close();
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  };
  return { context, page, errors, close };
}

// Serves `dir` with python3 -m http.server on a free port of 127.0.0.1: resolves to
// `{url, stop}`. The server is killed when this process exits, however it exits.
export function serveStatic(dir) {
  return new Promise((resolve, reject) => {
    const args = ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', dir, '0'];
    const child = spawn('python3', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    process.on('exit', stop);
    const timer = setTimeout(() => reject(new Error('no address from python3 -m http.server in 30 s')), 30_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.stderr.resume();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const found = /port (\d+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${found[1]}`, stop });
      }
    });
  });
}
