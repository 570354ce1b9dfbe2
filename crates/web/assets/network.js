// The built-in network for the WebAssembly engine: a file of its own (network.np,
// described by network.json: its size and SHA-256), downloaded only when the visitor
// asks for the stronger AI, with its progress, checked against its SHA-256, and kept
// in the browser's Cache API so that the next visit reads it from there. The wasm
// module checks the file's own checksum again as it reads it.
'use strict';

window.ai2048Network = (() => {
  const CACHE = 'ai2048-network';
  const base = new URL('.', document.baseURI);
  let described = null;

  // network.json: {"file", "bytes", "sha256", "games"}, or null when the site has no
  // network.
  async function manifest() {
    if (described) return described;
    let response;
    try {
      response = await fetch(new URL('network.json', base), { cache: 'no-cache' });
    } catch (e) {
      // Offline: the cached copy (kept by the service worker) answers, or nothing.
      return null;
    }
    if (!response.ok) return null;
    described = await response.json();
    return described;
  }

  async function sha256(bytes) {
    if (!crypto.subtle) return null; // not a secure context: the module's own check stays
    const digest = await crypto.subtle.digest('SHA-256', bytes);
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  }

  async function checked(bytes, m) {
    if (bytes.byteLength !== m.bytes) {
      throw new Error(`the network file has ${bytes.byteLength} bytes, not ${m.bytes}`);
    }
    const sum = await sha256(bytes);
    if (sum !== null && sum !== m.sha256) {
      throw new Error(`the network file's SHA-256 is ${sum}, not ${m.sha256}`);
    }
    return bytes;
  }

  async function openCache() {
    try {
      return await caches.open(CACHE);
    } catch (e) {
      return null; // no Cache API (not a secure context): download every visit
    }
  }

  // Reads `response`'s body, telling `progress(received, total)` as it comes.
  async function download(response, total, progress) {
    const reader = response.body.getReader();
    const bytes = new Uint8Array(total);
    let received = 0;
    progress(0, total);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received + value.length > total) {
        throw new Error(`the network file is longer than the ${total} bytes network.json says`);
      }
      bytes.set(value, received);
      received += value.length;
      progress(received, total);
    }
    return bytes.buffer.slice(0, received);
  }

  // The network file's bytes (an ArrayBuffer), checked: `{bytes, cached}`.
  async function fetchNetwork(progress) {
    const m = await manifest();
    if (!m) throw new Error('this site has no network file');
    const url = new URL(m.file, base);
    const cache = await openCache();
    const hit = cache && await cache.match(url);
    if (hit) {
      try {
        return { bytes: await checked(await hit.arrayBuffer(), m), cached: true };
      } catch (e) {
        await cache.delete(url); // a stale or damaged copy: download it again
      }
    }
    let response;
    try {
      response = await fetch(url, { cache: 'no-store' });
    } catch (e) {
      throw new Error('the network file cannot be downloaded (offline?)');
    }
    if (!response.ok) throw new Error(`the network file: the server answered ${response.status}`);
    const bytes = await checked(await download(response, m.bytes, progress), m);
    if (cache) {
      await cache.put(url, new Response(bytes.slice(0), {
        headers: { 'Content-Type': 'application/octet-stream' },
      }));
    }
    return { bytes, cached: false };
  }

  return {
    available: async () => (await manifest()) !== null,
    manifest,
    fetch: fetchNetwork,
  };
})();
