/**
 * Z3's Emscripten glue as we run it, in the browser and in Node alike
 * (docs/app.md, "Loading Z3"), with two changes to what z3-solver 5.2.0
 * ships. Both are made, or neither (then the glue runs as it ships, with the
 * wasm as it ships).
 *
 * 1. The table check. The glue was built with Emscripten's assertions on,
 *    and one of them sat on the hottest path there is: every C++ call that
 *    may throw went through a JavaScript `invoke_*` trampoline, which looks
 *    the callee up in a mirror of the wasm function table and then asserted
 *    that the mirror agrees with the table by reading the table again. That
 *    second read (`WebAssembly.Table.get`) was about a fifth of all solver
 *    time in a profile (docs/measurements.md, "Z3's invoke trampolines,
 *    profiled"). The check is a debugging aid only: the mirror is filled
 *    from the table and rewritten on every write to it
 *    (`setWasmTableEntry`), and Z3 never writes the table after start. It is
 *    removed; the trampolines that are called are the wasm's own
 *    (src/z3/wasm-invoke.ts).
 * 2. The C++ throw flag. The wasm's own trampolines (src/z3/wasm-invoke.ts)
 *    catch every exception and must tell a C++ one, which they handle as the
 *    glue's did, from any other, which they throw on. Each of the glue's
 *    three throws of a C++ exception (`__cxa_throw`, `__cxa_rethrow`,
 *    `__resumeException`) first sets the flag the wasm exports; with a wasm
 *    that exports none (as it ships) that is a no-op.
 *
 * When the glue does not have these statements word for word (another
 * z3-solver), nothing changes and `patched` is false
 * (test/z3/glue.test.ts fails then, so the next upgrade looks again).
 */
import { CPP_THROW_FLAG } from './wasm-invoke.ts';

/** The assertion on every function-table lookup, as the glue spells it. */
export const TABLE_MIRROR_CHECK = "assert(wasmTable.get(funcPtr) == func, 'JavaScript-side Wasm function table mirror is out of date!');";

/** What takes its place: a comment saying what was there. */
export const TABLE_MIRROR_NOTE = '/* osvlab: the table mirror check is removed here (src/z3/glue.ts) */';

/** The statement that throws a C++ exception, at each of the glue's three throw sites. */
export const CPP_THROW = 'throw exceptionLast;';

/** How many times the glue throws a C++ exception. */
const CPP_THROWS = 3;

/** What each of them becomes: the flag set, then the same throw. */
export const FLAGGED_CPP_THROW = `{ /* osvlab: src/z3/glue.ts */ const f = wasmExports['${CPP_THROW_FLAG}']; if (f) f.value = 1; } ${CPP_THROW}`;

function count(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

/** The glue with both changes; `patched` says whether they were made (each statement found exactly as often as expected). */
export function fastGlue(glue: string): { readonly text: string; readonly patched: boolean } {
  if (count(glue, TABLE_MIRROR_CHECK) !== 1 || count(glue, CPP_THROW) !== CPP_THROWS || glue.includes(CPP_THROW_FLAG)) return { text: glue, patched: false };
  return { text: glue.replace(TABLE_MIRROR_CHECK, TABLE_MIRROR_NOTE).replaceAll(CPP_THROW, FLAGGED_CPP_THROW), patched: true };
}
