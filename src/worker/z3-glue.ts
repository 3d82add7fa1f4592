/**
 * Z3's Emscripten glue as we run it, in the browser and in Node alike
 * (docs/app.md, "Loading Z3"). The glue z3-solver 5.2.0 ships was built with
 * Emscripten's assertions on, and one of them sits on the hottest path
 * there is: every C++ call that may throw goes through a JavaScript
 * `invoke_*` trampoline, which looks the callee up in a mirror of the wasm
 * function table and then asserts that the mirror agrees with the table by
 * reading the table again. That second read (`WebAssembly.Table.get`) was
 * about a fifth of all solver time in a profile, and the same 73 lemma
 * queries took 55 s with it and 31 s without it, one after the other in one
 * process (docs/app.md, "Loading Z3").
 *
 * The check is a debugging aid only: the mirror is filled from the table
 * and rewritten on every write to it (`setWasmTableEntry`), and Z3 never
 * writes the table after start. `fastGlue` removes exactly that statement
 * and nothing else; when the glue does not have it word for word (another
 * z3-solver), it changes nothing and says so (test/worker/z3-glue.test.ts
 * fails then, so the next upgrade looks again).
 */

/** The assertion on every function-table lookup, as the glue spells it. */
export const TABLE_MIRROR_CHECK = "assert(wasmTable.get(funcPtr) == func, 'JavaScript-side Wasm function table mirror is out of date!');";

/** What takes its place: a comment saying what was there. */
export const TABLE_MIRROR_NOTE = '/* osvlab: the table mirror check is removed here (src/worker/z3-glue.ts) */';

/** The glue without the per-lookup table check; `patched` says whether the check was there (exactly once). */
export function fastGlue(glue: string): { readonly text: string; readonly patched: boolean } {
  const at = glue.indexOf(TABLE_MIRROR_CHECK);
  if (at < 0 || glue.indexOf(TABLE_MIRROR_CHECK, at + 1) >= 0) return { text: glue, patched: false };
  return { text: glue.slice(0, at) + TABLE_MIRROR_NOTE + glue.slice(at + TABLE_MIRROR_CHECK.length), patched: true };
}
