// The static site's service worker: it keeps the site's files, so that after one
// visit the game and its AI work with the network cut, and it never mixes two
// versions of the site in one page.
//
// - Each deploy is a version: scripts/build-site (scripts/stamp-site) writes below the
//   site's version (a hash of its files) and each file's SHA-256. The version's files
//   are kept in a cache of its own, `ai2048-site-VERSION`, downloaded past the HTTP
//   cache (`cache: 'reload'`) and checked against their SHA-256, so a stale copy, or a
//   file of a deploy half done, fails the install (the browser tries again later).
// - A page is served from the version it started with: a page load (a navigation)
//   takes the newest version installed, and every request of that page, and of its
//   Web Workers, is answered from that version's cache; which client started with
//   which version is kept in the cache `ai2048-site-clients`, so that it outlives this
//   worker. A new version thus reaches an open page only when it reloads (the page
//   offers to: app.js shows "reload" once a new version took over).
// - A version's cache is dropped once no page or worker uses it.
//
// The network file (network.np) is kept by network.js in a cache of its own; requests
// to any API pass by.
'use strict';

const VERSION = 'ai2048-site-dev';
// Each file's SHA-256 (hexadecimal), by its path in the site; empty for the page
// `ai2048 serve` serves, which registers no service worker.
const HASHES = {};
const FILES = [
  './', 'index.html', 'style.css', 'app.js', 'engine.js', 'network.js', 'worker.js',
  'ranked.js', 'ranked.css', 'favicon.svg', 'network.json',
  'pkg/ai2048_wasm.js', 'pkg/ai2048_wasm_bg.wasm',
];
const PREFIX = 'ai2048-site-';
const CLIENTS = 'ai2048-site-clients';

async function sha256(buffer) {
  const digest = await crypto.subtle.digest('SHA-256', buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

// Downloads `file` past the HTTP cache and keeps it in `cache` if it is this
// version's; throws if it is not. False when the site has no such file (network.json
// is there only when the site has a network).
async function keep(cache, file) {
  const url = new URL(file, self.registration.scope);
  const response = await fetch(url, { cache: 'reload' });
  if (!response.ok) {
    if (file === 'network.json' && response.status === 404) return false;
    throw new Error(`cannot keep ${file}: the server answered ${response.status}`);
  }
  const bytes = await response.clone().arrayBuffer();
  const want = HASHES[file === './' ? 'index.html' : file];
  if (want !== undefined && await sha256(bytes) !== want) {
    throw new Error(`${file} is not the one of ${VERSION}: a deploy under way, or a stale copy`);
  }
  await cache.put(url, response);
  return true;
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    try {
      await Promise.all(FILES.map((file) => keep(cache, file)));
    } catch (e) {
      await caches.delete(VERSION); // a version is kept whole or not at all
      throw e;
    }
    // Open pages go on with their own version (see the fetch handler): a new one may
    // take over at once.
    await self.skipWaiting();
  })());
});

// The version each client (a page, or one of its workers) started with, by its id.
const started = new Map();

const clientKey = (id) => new URL(`clients/${encodeURIComponent(id)}`, self.registration.scope);

async function versionOf(id) {
  if (!id) return VERSION;
  if (!started.has(id)) {
    const kept = await (await caches.open(CLIENTS)).match(clientKey(id));
    // A client this worker never served (one that started before it): the newest.
    started.set(id, kept ? await kept.text() : VERSION);
  }
  return started.get(id);
}

async function remember(id, version) {
  if (!id) return;
  started.set(id, version);
  const record = new Response(version, { headers: { 'X-Started': String(Date.now()) } });
  await (await caches.open(CLIENTS)).put(clientKey(id), record);
}

// A client that is not open yet (a page still loading) is not among self.clients:
// its record is kept for this long all the same.
const YOUNG_MS = 5 * 60 * 1000;

// Drops the versions, and the records of clients, that no open client uses.
async function tidy() {
  const alive = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: 'all' }))
    .map((client) => client.id));
  const used = new Set([VERSION]);
  const records = await caches.open(CLIENTS);
  for (const request of await records.keys()) {
    const id = decodeURIComponent(new URL(request.url).pathname.split('/').pop());
    const record = await records.match(request);
    const young = Date.now() - Number(record.headers.get('X-Started')) < YOUNG_MS;
    if (alive.has(id) || young) {
      used.add(await record.text());
    } else {
      started.delete(id);
      await records.delete(request);
    }
  }
  for (const key of await caches.keys()) {
    if (key.startsWith(PREFIX) && key !== CLIENTS && !used.has(key)) await caches.delete(key);
  }
}

self.addEventListener('activate', (event) => {
  event.waitUntil(tidy());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (request.method !== 'GET' || url.origin !== scope.origin
    || !url.pathname.startsWith(scope.pathname)) return;
  const file = url.pathname.slice(scope.pathname.length) || './';
  if (!FILES.includes(file)) return;
  event.respondWith((async () => {
    let version;
    if (request.mode === 'navigate') {
      // A page starts: with the newest version.
      version = VERSION;
      event.waitUntil(remember(event.resultingClientId, version).then(tidy));
    } else {
      version = await versionOf(event.clientId);
      // A worker starts with its page's version.
      if (event.resultingClientId) event.waitUntil(remember(event.resultingClientId, version));
    }
    const cache = await caches.open(version);
    const kept = await cache.match(new URL(file, scope));
    if (kept) return kept;
    // Not kept (the install is under way, or the site has no such file): the server.
    return fetch(request);
  })());
});
