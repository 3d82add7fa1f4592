/**
 * What the build makes of z3-solver's two files, for the site's copy step
 * (src/z3/site-copy.ts) and the CLI's copies (src/z3/node.ts) alike
 * (docs/app.md, "Loading Z3"): the glue as src/z3/glue.ts patches it, and the
 * wasm with its exception trampolines inside (src/z3/wasm-invoke.ts), without
 * the linker's padding in its code (src/z3/wasm-compact.ts), and with a memory
 * import that admits every size of src/z3/memory.ts (src/z3/wasm-memory.ts).
 * Platform-free: bytes in, bytes out.
 */
import { withCompactCode } from './wasm-compact.ts';
import { withWasmInvokes } from './wasm-invoke.ts';
import { withEveryZ3Memory } from './memory.ts';

/**
 * The files of src/z3/ whose code decides the bytes `runnableWasm` and
 * `fastGlue` make: a copy older than any of them is made again.
 */
export const Z3_MAKERS: readonly string[] = ['build.ts', 'wasm-invoke.ts', 'wasm-instructions.ts', 'wasm-compact.ts', 'wasm-binary.ts', 'wasm-memory.ts', 'glue.ts', 'memory.ts'];

/**
 * z3-solver's wasm as we run it with the patched glue: trampolines in, padding
 * out, every memory size admitted. Throws `WasmFormatError` on a wasm the
 * rewrites cannot read (the caller then runs it as it ships).
 */
export function runnableWasm(shipped: Uint8Array): Uint8Array<ArrayBuffer> {
  return withEveryZ3Memory(withCompactCode(withWasmInvokes(shipped).bytes).bytes);
}
