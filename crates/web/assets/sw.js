// The static site's service worker: it keeps the site's files, so that after one
// visit the game and its AI work with the network cut. scripts/build-site writes the
// site's version (a hash of its files) below: a new site installs afresh and drops
// the old copies. The network file (network.np) is kept by network.js in a cache of
// its own; requests to any API pass by.
'use strict';

const VERSION = 'ai2048-site-dev';
const FILES = [
  './', 'index.html', 'style.css', 'app.js', 'engine.js', 'network.js', 'worker.js',
  'ranked.js', 'ranked.css', 'favicon.svg', 'network.json',
  'pkg/ai2048_wasm.js', 'pkg/ai2048_wasm_bg.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    // network.json is there only when the site has a network.
    await Promise.all(FILES.map((file) => cache.add(file).catch(() => {
      if (file !== 'network.json') throw new Error(`cannot keep ${file}`);
    })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('ai2048-site-') && key !== VERSION) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const scope = new URL(self.registration.scope);
  if (event.request.method !== 'GET' || url.origin !== scope.origin
    || !url.pathname.startsWith(scope.pathname)) return;
  const file = url.pathname.slice(scope.pathname.length) || './';
  if (!FILES.includes(file)) return;
  event.respondWith((async () => {
    const cache = await caches.open(VERSION);
    const kept = await cache.match(event.request, { ignoreSearch: true });
    if (kept) return kept;
    const response = await fetch(event.request);
    if (response.ok) cache.put(event.request, response.clone());
    return response;
  })());
});
