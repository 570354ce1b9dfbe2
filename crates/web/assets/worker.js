// The AI's Web Worker: it runs the searches of the WebAssembly engine (engine.js), so
// that the page never waits on one. Messages: {id, op: "init"}, {id, op: "network",
// bytes} (the built-in network's file) and {id, op: "best", line} (a request of the
// engine protocol); each is answered {id, data} or {id, error}. The page cancels a
// search by ending this worker.
import init, { engine, load_network } from './pkg/ai2048_wasm.js';

const started = init({ module_or_path: new URL('pkg/ai2048_wasm_bg.wasm', new URL('.', import.meta.url)) });

function reply(id, text) {
  const data = JSON.parse(text);
  if (data.error) self.postMessage({ id, error: data.error });
  else self.postMessage({ id, data });
}

self.onmessage = async (event) => {
  const { id, op } = event.data;
  try {
    await started;
    if (op === 'init') {
      self.postMessage({ id, data: {} });
    } else if (op === 'network') {
      reply(id, load_network(new Uint8Array(event.data.bytes)));
    } else if (op === 'best') {
      reply(id, engine(event.data.line));
    } else {
      self.postMessage({ id, error: `unknown request ${op} for the AI's worker` });
    }
  } catch (e) {
    self.postMessage({ id, error: `the AI's worker: ${e && e.message ? e.message : e}` });
  }
};
