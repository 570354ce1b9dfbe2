// The AI's Web Worker: it runs the searches of the WebAssembly engine (engine.js), so
// that the page never waits on one, and it owns the built-in network: it reads the
// file from the Cache API itself (or downloads it, checks it and keeps it there), and
// decodes it once into its own instance of the module, where it stays for every
// search after, a new game or an undo included (the page drops a cancelled search's
// answer; it never ends this worker for it).
//
// Messages, one at a time (engine.js sends the next once this one is answered):
// - {id, op: "init"}: answered once the module is ready;
// - {id, op: "network", manifest}: the network of network.json's `manifest`
//   ({file, bytes, sha256}), from the cache or downloaded (with {id, progress:
//   [received, total]} as it comes), checked and decoded: answered with the module's
//   {games, weights, bytes, checksum} and {cached, fetchMs, loadMs, decodes};
// - {id, op: "best", line}: a request of the engine protocol;
// - {id, op: "stats"}: {decodes, instances}, for tests;
// - {id, op: "panic"}: for tests, the module's next search panics.
// Each is answered {id, data} or {id, error}; with `crashed` (the panic's message)
// when the module panicked on the way.
//
// A panic in WebAssembly traps and leaves the instance unusable: the worker then makes
// a new instance of the module, decodes the network into it again (from the cache, or
// from its own copy when the cache could not keep the file), and asks the request
// again, once.
const base = new URL('.', import.meta.url);
const CACHE = 'ai2048-network';

// The compiled module, and the instance of it in use (its glue's exports).
let compiled = null;
let wasm = null;
let instances = 0;
// How many times a network was decoded in this worker.
let decodes = 0;
// The network the AI plays with: network.json's description, and the file's bytes
// when the Cache API could not keep them.
let network = null;

async function compile() {
  const url = new URL('pkg/ai2048_wasm_bg.wasm', base);
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch (e) {
    // A server that does not say application/wasm: from the bytes.
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
}

// A fresh instance of the module (its glue imported anew, so that its state is new).
async function instantiate() {
  if (!compiled) compiled = await compile();
  instances += 1;
  const glue = await import(new URL(`pkg/ai2048_wasm.js?instance=${instances}`, base).href);
  await glue.default({ module_or_path: compiled });
  wasm = glue;
}

const started = instantiate();

// The answer of a module function that answers JSON text; its {"error"} thrown.
function answer(text) {
  const data = JSON.parse(text);
  if (data.error) throw new Error(data.error);
  return data;
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

// Reads `response`'s body into one buffer, telling `progress(received, total)`.
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
  return received === total ? bytes.buffer : bytes.buffer.slice(0, received);
}

// The network file's bytes, checked: {bytes, cached}. The cache keys each file by
// its SHA-256, so that two versions of the site never take each other's network.
async function networkFile(m, progress) {
  const url = new URL(m.file, base);
  const key = new URL(`${m.file}?sha256=${m.sha256}`, base);
  const cache = await openCache();
  const hit = cache && await cache.match(key);
  if (hit) {
    try {
      return { bytes: await checked(await hit.arrayBuffer(), m), cached: true };
    } catch (e) {
      await cache.delete(key); // a damaged copy: download it again
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
  let unkept = null;
  if (cache) {
    try {
      // Older networks (and copies kept under the file's plain name) go.
      for (const old of await cache.keys()) await cache.delete(old);
      await cache.put(key, new Response(bytes, { headers: { 'Content-Type': 'application/octet-stream' } }));
    } catch (e) {
      // A full quota (QuotaExceededError) fails the keeping, not the download: the
      // AI plays with the file all the same, and the page says why it is not kept.
      unkept = e && e.name === 'QuotaExceededError'
        ? "the browser's storage for this site is full"
        : `the browser's cache refused it (${e && e.message ? e.message : e})`;
    }
  } else {
    unkept = 'this page has no Cache API (not a secure context)';
  }
  return { bytes, cached: false, unkept };
}

async function loadNetwork(id, m) {
  const begun = performance.now();
  const file = await networkFile(m, (received, total) => self.postMessage({ id, progress: [received, total] }));
  const fetched = performance.now();
  const info = answer(wasm.load_network(new Uint8Array(file.bytes)));
  decodes += 1;
  network = { manifest: m, bytes: file.unkept ? file.bytes : null };
  return {
    ...info,
    cached: file.cached,
    unkept: file.unkept || null,
    fetchMs: fetched - begun,
    loadMs: performance.now() - fetched,
    decodes,
  };
}

// After a panic: a new instance, with the network it had.
async function recover() {
  await instantiate();
  if (!network) return;
  const bytes = network.bytes || (await networkFile(network.manifest, () => {})).bytes;
  answer(wasm.load_network(new Uint8Array(bytes)));
  decodes += 1;
}

async function handle(message) {
  await started;
  switch (message.op) {
    case 'init': return {};
    case 'network': return loadNetwork(message.id, message.manifest);
    case 'best': return answer(wasm.engine(message.line));
    case 'stats': return { decodes, instances };
    case 'panic': wasm.panic_next_request(); return {};
    default: throw new Error(`unknown request ${message.op} for the AI's worker`);
  }
}

const text = (e) => (e && e.message ? e.message : String(e));

self.onmessage = async (event) => {
  const { id } = event.data;
  let crashed = null;
  for (;;) {
    try {
      self.postMessage({ id, data: await handle(event.data), crashed });
      return;
    } catch (e) {
      // A panic traps (RuntimeError); anything else is the request's own error.
      if (!(e instanceof WebAssembly.RuntimeError)) {
        self.postMessage({ id, error: text(e), crashed });
        return;
      }
      const again = crashed !== null;
      let said = null;
      try {
        said = wasm.last_panic(); // the panic's message, kept by the module
      } catch (_) {
        said = null;
      }
      crashed = said ? said.replace(/\s+/g, ' ') : `${e.name}: ${text(e)}`;
      try {
        await recover();
      } catch (failed) {
        self.postMessage({ id, error: `the AI's module crashed (${crashed}), and cannot start again: ${text(failed)}` });
        return;
      }
      if (again) {
        self.postMessage({ id, error: `the AI's module crashed twice on this request (${crashed})`, crashed });
        return;
      }
    }
  }
};
