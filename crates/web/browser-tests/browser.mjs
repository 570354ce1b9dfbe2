// What the browser tests share: Debian's headless Chromium, launched on a profile of
// its own, and the page's errors collected.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
