// The built-in network for the WebAssembly engine: a file of its own (network.np,
// described by network.json: its size and SHA-256), downloaded only when the visitor
// asks for the stronger AI. The page reads only its description: the AI's worker
// (worker.js) reads the file itself, from the browser's Cache API or downloaded with
// its progress, checks it against the SHA-256, keeps it in the cache for the next
// visit, and decodes it (the wasm module checks the file's own checksum again).
'use strict';

window.ai2048Network = (() => {
  const base = new URL('.', document.baseURI);
  let described = null;

  // network.json: {"file", "bytes", "sha256"}, or null when the site has no network.
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

  return {
    available: async () => (await manifest()) !== null,
    manifest,
  };
})();
