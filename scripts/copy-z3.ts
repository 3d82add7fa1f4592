// Copies Z3's Emscripten glue and wasm from the npm package into public/, where
// the verifier worker fetches them (see docs/app.md, "Loading Z3"). The glue is
// copied as src/worker/z3-glue.ts makes it (one debugging check off its hottest
// path, a flag set before each C++ throw), and the wasm as
// src/worker/wasm-invoke.ts makes it (the exception trampolines moved into it;
// docs/app.md, "Z3's invoke trampolines"), or both as they ship when the glue
// is not the one the patch fits. Beside the wasm with its 2 GiB of memory go
// copies of it for the smaller memories of src/worker/z3-memory.ts, their
// memory import rewritten (src/worker/wasm-memory.ts; docs/app.md, "Z3's
// memory"), all without the wasm's function names (its `name` section). Skips
// a file that is already what it would write, so `predev` stays instant.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WasmFormatError } from '../src/worker/wasm-binary.ts';
import { withWasmInvokes } from '../src/worker/wasm-invoke.ts';
import { withMemoryPages, withoutCustomSection } from '../src/worker/wasm-memory.ts';
import { fastGlue } from '../src/worker/z3-glue.ts';
import { FULL_MEMORY_MIB, Z3_MEMORY_MIB, pagesOf, z3WasmFile } from '../src/worker/z3-memory.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const buildDir = dirname(require.resolve('z3-solver/build/z3-built.js', { paths: [root] }));
const out = join(root, 'public');
mkdirSync(out, { recursive: true });

const glue = fastGlue(readFileSync(join(buildDir, 'z3-built.js'), 'utf8'));
if (!glue.patched) console.warn('copy-z3: the glue is not the one src/worker/z3-glue.ts patches; glue and wasm copied as they ship (slower)');
const glueTo = join(out, 'z3-built.js');
if (!existsSync(glueTo) || readFileSync(glueTo, 'utf8') !== glue.text) {
  // Written aside and renamed: a build reading public/ at the same time sees the old file or the new one.
  writeFileSync(`${glueTo}.${process.pid}.part`, glue.text);
  renameSync(`${glueTo}.${process.pid}.part`, glueTo);
  console.log(`copy-z3: z3-built.js (${(glue.text.length / 1e6).toFixed(1)} MB${glue.patched ? ', patched' : ''})`);
}

const wasmFrom = join(buildDir, 'z3-built.wasm');
const a = statSync(wasmFrom);
// Without its function names (src/worker/wasm-memory.ts, withoutCustomSection): the site's copies are smaller to download.
// With the trampolines in the wasm when the glue sets their flag, else as it ships.
let site: Uint8Array | undefined;
const siteWasm = () => {
  if (site) return site;
  const shipped = withoutCustomSection(new Uint8Array(readFileSync(wasmFrom)), 'name');
  if (!glue.patched) return (site = shipped);
  try {
    return (site = withWasmInvokes(shipped).bytes);
  } catch (e) {
    // The patched glue also runs the wasm as it ships (its flag is then set on nothing), only slower.
    if (!(e instanceof WasmFormatError)) throw e;
    console.warn(`copy-z3: the wasm's trampolines stay in the glue (src/worker/wasm-invoke.ts: ${e.message})`);
    return (site = shipped);
  }
};

// Each memory size: written when missing, older than the package's wasm or than the code that makes it, or still carrying the names.
const makers = [fileURLToPath(import.meta.url), ...['wasm-invoke.ts', 'wasm-binary.ts', 'wasm-memory.ts', 'z3-glue.ts'].map((f) => join(root, 'src', 'worker', f))];
const written = Math.max(a.mtimeMs, ...makers.map((f) => statSync(f).mtimeMs));
for (const mib of Z3_MEMORY_MIB) {
  const to = join(out, z3WasmFile(mib));
  if (existsSync(to) && statSync(to).mtimeMs >= written && statSync(to).size < a.size - 1e6) continue;
  writeFileSync(`${to}.${process.pid}.part`, mib === FULL_MEMORY_MIB ? siteWasm() : withMemoryPages(siteWasm(), pagesOf(mib)));
  renameSync(`${to}.${process.pid}.part`, to);
  console.log(`copy-z3: ${z3WasmFile(mib)} (memory import ${mib} MiB, no name section)`);
}
