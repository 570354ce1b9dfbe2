// The WebAssembly build against the native one: every request of the transcripts
// (crates/wasm/examples/transcripts.rs, made natively) is asked again of the wasm
// module, which must answer it byte for byte the same.
//
//   node crates/wasm/tests/differential.mjs PKG_DIR TRANSCRIPTS.jsonl
//
// PKG_DIR holds wasm-bindgen's output for the web (ai2048_wasm.js and
// ai2048_wasm_bg.wasm), as scripts/build-site makes it.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createReadStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkg, transcripts] = process.argv.slice(2);
if (!pkg || !transcripts) {
  console.error('usage: node differential.mjs PKG_DIR TRANSCRIPTS.jsonl');
  process.exit(2);
}
const glue = await import(pathToFileURL(resolve(pkg, 'ai2048_wasm.js')).href);
glue.initSync({ module: readFileSync(join(pkg, 'ai2048_wasm_bg.wasm')) });

const counts = { new_game: 0, step: 0, engine: 0 };
let games = 0;
let failures = 0;
const lines = createInterface({ input: createReadStream(transcripts) });
for await (const line of lines) {
  if (!line) continue;
  const { f, request, answer } = JSON.parse(line);
  if (!(f in counts)) throw new Error(`unknown function ${f} in ${transcripts}`);
  const got = glue[f](request);
  counts[f] += 1;
  if (f === 'new_game') games += 1;
  if (got !== answer) {
    failures += 1;
    if (failures <= 5) {
      console.error(`${f}(${request})\n  native: ${answer}\n  wasm:   ${got}`);
    }
  }
}
console.log(
  `${games} games: ${counts.step} moves and ${counts.engine} searches compared; ` +
    `${failures} differ`,
);
if (games === 0 || failures > 0) process.exit(1);
