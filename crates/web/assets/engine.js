// Where the page's game and AI run: the engine. The page holds no game rules; it asks
// the engine for a new game, for each move with its spawn, and for the AI's move.
//
// - "wasm": the engine and the AI compiled to WebAssembly (pkg/, built by
//   scripts/build-site). A move is answered at once on the page's own thread; the
//   AI searches in a Web Worker (worker.js), so the page never waits on it. The
//   worker owns the built-in network (it reads and decodes it itself); a search that
//   is no longer wanted is dropped, its answer ignored, and the worker and its
//   network stay.
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

  // The module's glue, of a fresh instance of the module: the `instance`th (its glue
  // imported anew for each, so that each has a state of its own).
  async function wasmInstance(instance) {
    const glue = await import(new URL(`pkg/ai2048_wasm.js${instance > 1 ? `?instance=${instance}` : ''}`, base).href);
    await glue.default({ module_or_path: new URL('pkg/ai2048_wasm_bg.wasm', base) });
    return glue;
  }

  async function wasmEngine() {
    // The page's own instance of the module, for new games and moves.
    let wasm = await wasmInstance(1);
    let instances = 1;

    // The AI's worker (worker.js) answers one request at a time: the others wait here,
    // in `queue`, so that a cancelled one that waits is never sent at all.
    let worker = null;
    let sent = null; // the request the worker has: {message, resolve, reject, progress, cancelled}
    let queue = [];
    let nextId = 1;
    let networkInfo = null;
    let manifest = null; // network.json's description of the network loaded, for a new worker
    let decodes = 0; // the networks decoded, in every worker so far
    let crashed = () => {}; // told when the worker's module panicked, or the worker failed
    let failures = 0; // the worker's failures since it last answered
    const MAX_FAILURES = 3;

    function pump() {
      if (sent || queue.length === 0 || !worker) return;
      sent = queue.shift();
      worker.postMessage(sent.message);
    }

    // A request for the worker: `message`, and what to do with its answer's data.
    // `cancellable`: a search, which cancel() drops.
    function entry(message, resolve, reject, { cancellable = false, progress = null } = {}) {
      nextId += 1;
      return {
        message: { ...message, id: nextId - 1 }, resolve, reject, progress, cancellable, cancelled: false,
      };
    }

    function request(message, options) {
      return new Promise((resolve, reject) => {
        if (!worker) {
          reject(new EngineError("the AI's worker failed too often: reload the page", 500, 1));
          return;
        }
        queue.push(entry(message, resolve, reject, options));
        pump();
      });
    }

    const cancelledError = () => new EngineError('the search was cancelled', 409, 0);
    const withNetwork = () => (manifest ? ' with the network it had' : '');

    function startWorker() {
      const mine = new Worker(new URL('worker.js', base), { type: 'module' });
      worker = mine;
      mine.onmessage = (event) => {
        if (mine !== worker) return;
        const { id, data, error, progress } = event.data;
        if (!sent || sent.message.id !== id) return;
        if (progress) {
          if (sent.progress) sent.progress(...progress);
          return;
        }
        failures = 0;
        if (event.data.crashed) {
          crashed(`The AI's module crashed (${event.data.crashed}); it started again${withNetwork()}, and the AI plays on.`);
        }
        const answered = sent;
        sent = null;
        if (!answered.cancelled) {
          if (error) answered.reject(new EngineError(error, 400, 1));
          else answered.resolve(data);
        }
        pump();
      };
      // An error the worker did not catch (its script, or its memory): a new worker,
      // given the network again, is asked what the old one had under way.
      mine.onerror = (event) => {
        if (mine !== worker) return;
        event.preventDefault();
        const what = `The AI's worker failed (${event.message || 'unknown error'})`;
        mine.terminate();
        failures += 1;
        if (failures > MAX_FAILURES) {
          worker = null;
          const failed = new EngineError(`${what} ${failures} times in a row: reload the page`, 500, 1);
          for (const waiting of sent ? [sent, ...queue] : queue) waiting.reject(failed);
          sent = null;
          queue = [];
          return;
        }
        crashed(`${what}; a new one took its place${withNetwork()}, and the AI plays on.`);
        if (sent && !sent.cancelled) queue.unshift(sent);
        sent = null;
        if (manifest) {
          const again = manifest;
          queue.unshift(entry({ op: 'network', manifest: again }, () => {
            decodes += 1;
          }, (e) => {
            networkInfo = null;
            manifest = null;
            crashed(`The network could not be loaded again (${e.message}): the AI plays with the hand-made heuristic.`);
          }));
        }
        startWorker();
        pump();
      };
    }

    // A fresh worker, with no network: what the old one had under way is cancelled.
    function restartWorker() {
      if (worker) worker.terminate();
      if (sent && !sent.cancelled) sent.reject(cancelledError());
      sent = null;
      startWorker();
      pump();
    }

    startWorker();
    await request({ op: 'init' });

    // The answer of the page's instance to `request` for function `name`. A panic
    // traps the instance and leaves it unusable: a new instance answers again (a new
    // game and a move are the same from any instance: all they need is the request).
    async function onPage(name, request) {
      try {
        return answer(wasm[name], request);
      } catch (e) {
        if (!(e instanceof WebAssembly.RuntimeError)) throw e;
        let said = null;
        try {
          said = wasm.last_panic();
        } catch (_) {
          said = null;
        }
        instances += 1;
        wasm = await wasmInstance(instances);
        crashed(`The game's module crashed (${said ? said.replace(/\s+/g, ' ') : `${e.name}: ${e.message}`}); it started again, and the game goes on.`);
        return answer(wasm[name], request);
      }
    }

    return {
      kind: 'wasm',
      newGame: async (seed) => {
        if (seed !== undefined) return onPage('new_game', { seed });
        const random = new Uint32Array(2);
        crypto.getRandomValues(random);
        // A seed the API takes: below 2^53.
        return onPage('new_game', { seed: (random[0] & 0x1fffff) * 2 ** 32 + random[1] });
      },
      step: (request) => onPage('step', request),
      best: (search) => request({ op: 'best', line: JSON.stringify({ op: 'best', ...search }) }, { cancellable: true }),
      // For tests: the worker's own count of the networks it decoded, and of the
      // instances of the module it made; and a panic of the module's next search.
      stats: () => request({ op: 'stats' }),
      panicNextSearch: () => request({ op: 'panic' }),
      // For tests: the page's instance panics at its next request (a move).
      panicNextMove: () => wasm.panic_next_request(),
      // `tell(text)` is told when the worker's module panicked (the worker made a new
      // instance of it, with the network, and asked the request again), or the worker
      // itself failed (a new worker took its place, given the network again).
      onCrash(tell) {
        crashed = tell;
      },
      players: async () => {
        const info = JSON.parse(wasm.players());
        info.network = networkInfo !== null;
        return info;
      },
      // Drops the searches asked for: those waiting are never sent, and the answer of
      // the one under way (it ends within its time) is ignored. The worker, and the
      // network it has decoded, stay.
      cancel() {
        queue = queue.filter((waiting) => {
          if (waiting.cancellable) waiting.reject(cancelledError());
          return !waiting.cancellable;
        });
        if (sent && sent.cancellable && !sent.cancelled) {
          sent.cancelled = true;
          sent.reject(cancelledError());
        }
      },
      // The built-in network, which the worker reads and decodes itself: `load(m,
      // progress)` for network.json's description `m` ({file, bytes, sha256}), telling
      // `progress(received, total)` while it downloads; `unload()` goes back to the
      // heuristic (with a fresh worker); `decodes` counts the networks decoded.
      network: {
        async load(m, progress) {
          const info = await request({ op: 'network', manifest: m }, { progress });
          decodes += 1;
          networkInfo = info;
          manifest = m;
          return info;
        },
        async unload() {
          networkInfo = null;
          manifest = null;
          restartWorker();
          await request({ op: 'init' });
        },
        get loaded() {
          return networkInfo;
        },
        get decodes() {
          return decodes;
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
