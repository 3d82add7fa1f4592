// Copies Z3's Emscripten glue and wasm from the npm package into public/, where
// the verifier worker fetches them (see docs/app.md, "Loading Z3"). The glue is
// copied as src/worker/z3-glue.ts makes it (one debugging check off its hottest
// path, a flag set before each C++ throw), and the wasm as
// src/worker/wasm-invoke.ts makes it (the exception trampolines moved into it;
// docs/app.md, "Z3's invoke trampolines"), or both as they ship when the glue
// is not the one the patch fits, and without the linker's padding in its code
// (src/worker/wasm-compact.ts). The one wasm serves every memory size of
// src/worker/z3-memory.ts: its memory import admits 256 MiB to 2 GiB
// (src/worker/wasm-memory.ts; docs/app.md, "Z3's memory"), and it goes
// without the wasm's function names (its `name` section). The copies per size
// that earlier builds wrote are deleted. Skips a file that is already what it
// would write, so `predev` stays instant.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WasmFormatError } from '../src/worker/wasm-binary.ts';
import { withCompactCode } from '../src/worker/wasm-compact.ts';
import { withWasmInvokes } from '../src/worker/wasm-invoke.ts';
import { importAdmits, readMemoryImport, withoutCustomSection } from '../src/worker/wasm-memory.ts';
import { fastGlue } from '../src/worker/z3-glue.ts';
import { RETIRED_WASM_FILES, Z3_MEMORY_MIB, Z3_WASM_FILE, pagesOf, withEveryZ3Memory } from '../src/worker/z3-memory.ts';

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
// Without its function names (src/worker/wasm-memory.ts, withoutCustomSection): the site's copy is smaller to download.
// With the trampolines in the wasm when the glue sets their flag, and without the linker's padding
// (src/worker/wasm-compact.ts: 3.1 MB less), else as it ships.
let site: Uint8Array | undefined;
const siteWasm = () => {
  if (site) return site;
  const shipped = withoutCustomSection(new Uint8Array(readFileSync(wasmFrom)), 'name');
  if (!glue.patched) return (site = shipped);
  try {
    return (site = withCompactCode(withWasmInvokes(shipped).bytes).bytes);
  } catch (e) {
    // The patched glue also runs the wasm as it ships (its flag is then set on nothing), only slower.
    if (!(e instanceof WasmFormatError)) throw e;
    console.warn(`copy-z3: the wasm's trampolines stay in the glue (src/worker/wasm-invoke.ts: ${e.message})`);
    return (site = shipped);
  }
};

// Written when missing, older than the package's wasm or than the code that makes it, still carrying the names, or
// with a memory import that does not admit every size (a copy from before the single wasm).
const makers = [fileURLToPath(import.meta.url), ...['wasm-invoke.ts', 'wasm-instructions.ts', 'wasm-compact.ts', 'wasm-binary.ts', 'wasm-memory.ts', 'z3-glue.ts', 'z3-memory.ts'].map((f) => join(root, 'src', 'worker', f))];
const written = Math.max(a.mtimeMs, ...makers.map((f) => statSync(f).mtimeMs));
const wasmTo = join(out, Z3_WASM_FILE);
const current = () => {
  if (!existsSync(wasmTo) || statSync(wasmTo).mtimeMs < written || statSync(wasmTo).size >= a.size - 1e6) return false;
  const mem = readMemoryImport(new Uint8Array(readFileSync(wasmTo)));
  return Z3_MEMORY_MIB.every((mib) => importAdmits(mem, pagesOf(mib)));
};
if (!current()) {
  writeFileSync(`${wasmTo}.${process.pid}.part`, withEveryZ3Memory(siteWasm()));
  renameSync(`${wasmTo}.${process.pid}.part`, wasmTo);
  console.log(`copy-z3: ${Z3_WASM_FILE} (memory import ${Z3_MEMORY_MIB.at(-1)} MiB to ${Z3_MEMORY_MIB[0]} MiB, no name section)`);
}
for (const file of RETIRED_WASM_FILES) {
  if (!existsSync(join(out, file))) continue;
  rmSync(join(out, file), { force: true });
  console.log(`copy-z3: ${file} deleted (one wasm serves every memory size)`);
}
