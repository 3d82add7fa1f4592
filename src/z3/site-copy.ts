/**
 * The site's build step for Z3: copies z3-solver's Emscripten glue and wasm
 * into public/, where the verifier worker fetches them (docs/app.md, "Loading
 * Z3"), as src/z3/build.ts makes them, or both as they ship when the glue is
 * not the one the patch fits. The site's wasm also goes without the wasm's
 * function names (its `name` section), so it is smaller to download. The
 * copies per memory size that earlier builds wrote are deleted. Skips a file
 * that is already what it would write, so `predev` stays instant. Run by
 * scripts/copy-z3.ts (`predev`, `prebuild`).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Z3_MAKERS, runnableWasm } from './build.ts';
import { fastGlue } from './glue.ts';
import { RETIRED_WASM_FILES, Z3_MEMORY_MIB, Z3_WASM_FILE, pagesOf, withEveryZ3Memory } from './memory.ts';
import { WasmFormatError } from './wasm-binary.ts';
import { importAdmits, readMemoryImport, withoutCustomSection } from './wasm-memory.ts';

/** Writes `bytes` to `file` aside and renames it: a build reading the folder at the same time sees the old file or the new one. */
function replace(file: string, bytes: string | Uint8Array): void {
  writeFileSync(`${file}.${process.pid}.part`, bytes);
  renameSync(`${file}.${process.pid}.part`, file);
}

/** Copies Z3's glue and wasm into `out` (the site's public/), from the z3-solver that `root` resolves; `extraMakers` are other files whose change remakes the wasm. */
export function copyZ3ToSite(root: string, out: string, extraMakers: readonly string[] = []): void {
  const require = createRequire(join(root, 'package.json'));
  const buildDir = dirname(require.resolve('z3-solver/build/z3-built.js'));
  mkdirSync(out, { recursive: true });

  const glue = fastGlue(readFileSync(join(buildDir, 'z3-built.js'), 'utf8'));
  if (!glue.patched) console.warn('copy-z3: the glue is not the one src/z3/glue.ts patches; glue and wasm copied as they ship (slower)');
  const glueTo = join(out, 'z3-built.js');
  if (!existsSync(glueTo) || readFileSync(glueTo, 'utf8') !== glue.text) {
    replace(glueTo, glue.text);
    console.log(`copy-z3: z3-built.js (${(glue.text.length / 1e6).toFixed(1)} MB${glue.patched ? ', patched' : ''})`);
  }

  const wasmFrom = join(buildDir, 'z3-built.wasm');
  const a = statSync(wasmFrom);
  // With the trampolines in the wasm when the glue sets their flag, and without the linker's padding
  // (src/z3/wasm-compact.ts: 3.1 MB less), else as it ships; without the names either way.
  const siteWasm = (): Uint8Array<ArrayBuffer> => {
    const shipped = withoutCustomSection(new Uint8Array(readFileSync(wasmFrom)), 'name');
    if (!glue.patched) return withEveryZ3Memory(shipped);
    try {
      return runnableWasm(shipped);
    } catch (e) {
      // The patched glue also runs the wasm as it ships (its flag is then set on nothing), only slower.
      if (!(e instanceof WasmFormatError)) throw e;
      console.warn(`copy-z3: the wasm's trampolines stay in the glue (src/z3/wasm-invoke.ts: ${e.message})`);
      return withEveryZ3Memory(shipped);
    }
  };

  // Written when missing, older than the package's wasm or than the code that makes it, still carrying the names, or
  // with a memory import that does not admit every size (a copy from before the single wasm).
  const here = dirname(fileURLToPath(import.meta.url));
  const makers = [fileURLToPath(import.meta.url), ...extraMakers, ...Z3_MAKERS.map((f) => join(here, f))];
  const written = Math.max(a.mtimeMs, ...makers.map((f) => statSync(f).mtimeMs));
  const wasmTo = join(out, Z3_WASM_FILE);
  const current = () => {
    if (!existsSync(wasmTo) || statSync(wasmTo).mtimeMs < written || statSync(wasmTo).size >= a.size - 1e6) return false;
    const mem = readMemoryImport(new Uint8Array(readFileSync(wasmTo)));
    return Z3_MEMORY_MIB.every((mib) => importAdmits(mem, pagesOf(mib)));
  };
  if (!current()) {
    replace(wasmTo, siteWasm());
    console.log(`copy-z3: ${Z3_WASM_FILE} (memory import ${Z3_MEMORY_MIB.at(-1)} MiB to ${Z3_MEMORY_MIB[0]} MiB, no name section)`);
  }
  for (const file of RETIRED_WASM_FILES) {
    if (!existsSync(join(out, file))) continue;
    rmSync(join(out, file), { force: true });
    console.log(`copy-z3: ${file} deleted (one wasm serves every memory size)`);
  }
}
