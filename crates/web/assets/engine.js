// Where the page's game and AI run: the engine. The page holds no game rules; it asks
// the engine for a new game, for each move with its spawn, and for the AI's move.
//
// - "wasm": the engine and the AI compiled to WebAssembly (pkg/, built by
//   scripts/build-site). A move is answered at once on the page's own thread; the
//   AI searches in a Web Worker (worker.js), so the page never waits on it, and a
//   search that is no longer wanted is cancelled by ending that worker.
// - "server": `ai2048 serve`'s API (/api/new, /api/step, /api/best, /api/players).
//
// The same seed makes the same game on both: the wasm module is the server's Rust.
// `<meta name="ai2048-engine" content="wasm|server|auto">` chooses (auto: the
// WebAssembly engine where pkg/ is there, else the server).
'use strict';

window.ai2048Engine = (() => {
  class EngineError extends Error {
    // `status` as HTTP's (0: unreachable; 409 for a search cancelled), `retryAfter`
    // in seconds.
    constructor(message, status, retryAfter) {
      super(message);
      this.status = status;
      this.retryAfter = retryAfter;
    }
  }

  // The page's own address, for its files (the site may live under a sub-path, as
  // GitHub Pages puts it).
  const base = new URL('.', document.baseURI);

  // ---- The server ----------------------------------------------------------------

  async function api(path, body) {
    const init = body === undefined
      ? { method: 'GET' }
      : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    let response;
    try {
      response = await fetch(new URL(path, base), init);
    } catch (e) {
      throw new EngineError('the server cannot be reached: is ai2048 serve still running?', 0, 1);
    }
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    if (!response.ok) {
      const message = (data && data.error) || `the server answered ${response.status}`;
      const retry = Number(response.headers.get('Retry-After')) || 1;
      throw new EngineError(message, response.status, retry);
    }
    return data;
  }

  function serverEngine() {
    return {
      kind: 'server',
      newGame: (seed) => api('api/new', seed === undefined ? {} : { seed }),
      step: (request) => api('api/step', request),
      best: (request) => api('api/best', request),
      players: () => api('api/players'),
      // A search on the server ends within its time budget; its answer is dropped.
      cancel() {},
      // The server plays with its own built-in network.
      network: null,
    };
  }

  // ---- WebAssembly -----------------------------------------------------------------

  // The answer of a wasm function to `request`, or the error it gives.
  function answer(fn, request) {
    const data = JSON.parse(fn(JSON.stringify(request)));
    if (data.error) throw new EngineError(data.error, 400, 1);
    return data;
  }

  async function wasmEngine() {
    const wasm = await import(new URL('pkg/ai2048_wasm.js', base).href);
    await wasm.default({ module_or_path: new URL('pkg/ai2048_wasm_bg.wasm', base) });

    let worker = null;
    let ready = null; // resolves once the worker has its module (and network)
    const pending = new Map(); // id -> {resolve, reject}
    let nextId = 1;
    let networkBytes = null; // the network file the worker plays with, if any
    let networkInfo = null;

    function post(message, transfer) {
      const id = nextId;
      nextId += 1;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ ...message, id }, transfer || []);
      });
    }

    function failAll(error) {
      for (const { reject } of pending.values()) reject(error);
      pending.clear();
    }

    function startWorker() {
      worker = new Worker(new URL('worker.js', base), { type: 'module' });
      worker.onmessage = (event) => {
        const { id, data, error } = event.data;
        const waiting = pending.get(id);
        if (!waiting) return;
        pending.delete(id);
        if (error) waiting.reject(new EngineError(error, 400, 1));
        else waiting.resolve(data);
      };
      worker.onerror = (event) => {
        failAll(new EngineError(`the AI's worker failed: ${event.message || 'unknown error'}`, 500, 1));
      };
      ready = post({ op: 'init' }).then(() => (networkBytes
        ? post({ op: 'network', bytes: networkBytes.slice(0) })
        : null));
      // A network that no longer loads (it cannot, once it loaded) leaves the AI on
      // the heuristic rather than stuck.
      ready = ready.catch(() => null);
    }

    startWorker();
    await ready;

    return {
      kind: 'wasm',
      newGame: async (seed) => {
        if (seed !== undefined) return answer(wasm.new_game, { seed });
        const random = new Uint32Array(2);
        crypto.getRandomValues(random);
        // A seed the API takes: below 2^53.
        return answer(wasm.new_game, { seed: (random[0] & 0x1fffff) * 2 ** 32 + random[1] });
      },
      step: async (request) => answer(wasm.step, request),
      best: async (request) => {
        await ready;
        return post({ op: 'best', line: JSON.stringify({ op: 'best', ...request }) });
      },
      players: async () => {
        const info = JSON.parse(wasm.players());
        info.network = networkInfo !== null;
        return info;
      },
      // Ends the search under way, if any: its worker is replaced by a fresh one,
      // which loads the module (and the network) again.
      cancel() {
        if (pending.size === 0) return;
        worker.terminate();
        failAll(new EngineError('the search was cancelled', 409, 0));
        startWorker();
      },
      // The built-in network: `load(bytes)` gives the worker the file's bytes (an
      // ArrayBuffer of nets/default.np), `unload()` goes back to the heuristic.
      network: {
        async load(bytes) {
          await ready;
          const info = await post({ op: 'network', bytes: bytes.slice(0) });
          networkBytes = bytes;
          networkInfo = info;
          return info;
        },
        async unload() {
          networkBytes = null;
          networkInfo = null;
          worker.terminate();
          failAll(new EngineError('the search was cancelled', 409, 0));
          startWorker();
          await ready;
        },
        get loaded() {
          return networkInfo;
        },
      },
    };
  }

  // The engine the page plays with: chosen by the page's meta tag, or the WebAssembly
  // engine where the site has it and else the server.
  async function start() {
    const meta = document.querySelector('meta[name="ai2048-engine"]');
    const wanted = (meta && meta.content) || 'auto';
    if (wanted === 'server') return serverEngine();
    try {
      return await wasmEngine();
    } catch (e) {
      if (wanted === 'wasm') throw new EngineError(`the WebAssembly engine cannot start: ${e.message}`, 500, 1);
      return serverEngine();
    }
  }

  return { start, EngineError };
})();
