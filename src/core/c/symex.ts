/**
 * The symbolic executor: runs a C function of a checked program on symbolic
 * arguments and memory, exploring every path and merging them, and returns
 * the return value and final memory as terms, plus the safety conditions
 * the caller must prove (array bounds, division by zero, shift amounts,
 * `assert`, unreachable `panic`).
 *
 * Paths. The executor keeps one current state (path condition, memory,
 * locals). An `if` runs both branches under their conditions and merges
 * them with `If` where they differ. A `return` (at any depth), `break`,
 * `continue` or `panic` ends the current path: its state is stashed and the
 * path condition of what follows is narrowed; stashed states are merged
 * where control meets again (end of function, loop exit, end of loop body).
 * Calls are inlined. Loops must have a constant trip count and are
 * unrolled. After a safety condition the path continues as if it held; its
 * condition is assumed in the antecedents of later conditions.
 *
 * Facts. The conjuncts of the path condition and of the passed safety
 * conditions decide later tests and checks syntactically (symex/facts.ts).
 *
 * This file is the entry point; the executor itself is in symex/, one part
 * per file, each layer extending the one below: core.ts (limits, safety
 * conditions, fork and join), lvalues.ts (objects, loads and stores),
 * expressions.ts, statements.ts, calls.ts (`Executor`); beside them
 * state.ts (the path state), path-join.ts (path merging), facts.ts (the fact
 * simplifier), arith.ts (C arithmetic on terms) and upper-bound.ts (bound
 * analysis for array indices).
 */
import * as o from '../smt/ops.ts';
import { type Term, bvConst } from '../smt/term.ts';
import { type CDiagnostic, CError, badArguments, execTooDeep, internal, noSuchFunction, nowhere, withDetail } from './errors.ts';
import type { Val } from './hooks.ts';
import { DEFAULT_MAX_STEPS, MAX_EXEC_DEPTH } from './limits.ts';
import { type CMemory, address } from './memory.ts';
import type { CProgram } from './program.ts';
import type { SafetyCondition } from './safety.ts';
import { Executor } from './symex/calls.ts';
import { PathDied, type State, isTerm } from './symex/state.ts';
export type { SafetyCondition } from './safety.ts';

export interface ExecOptions {
  /** Statement and expression evaluations before giving up (default 200,000, limits.ts). */
  readonly maxSteps?: number;
}

export type ExecResult =
  | {
      readonly ok: true;
      /** The merged return value (sort = the return width; the Bool `true` for a void function). */
      readonly ret: Term;
      readonly mem: CMemory;
      readonly safety: SafetyCondition[];
      readonly stats: { readonly paths: number; readonly steps: number };
    }
  | { readonly ok: false; readonly error: CDiagnostic };

/**
 * Runs function `name` of `program` on `args` (one term per parameter, of
 * its width) from memory `mem`. Returns the merged return value, the final
 * memory and the safety conditions, or an error with a span.
 */
export function execFunction(
  program: CProgram,
  name: string,
  mem: CMemory,
  args: readonly Term[],
  opts: ExecOptions = {},
): ExecResult {
  const fn = program.functions.get(name);
  const where = fn?.span ?? nowhere(program.units[0]?.file ?? '<program>');
  if (!fn || !fn.body) return failed(noSuchFunction(where, name), program);
  if (args.length !== fn.params.length) {
    return failed(badArguments(where, `'${name}' takes ${fn.params.length} arguments, got ${args.length}`), program);
  }
  for (let i = 0; i < args.length; i++) {
    const p = fn.params[i];
    if (p.type.kind !== 'int') return failed(badArguments(p.span, `parameter '${p.name}' is a pointer; only integer arguments can be given`), program);
    if (args[i].sort !== p.type.width) {
      return failed(badArguments(p.span, `argument ${i + 1} ('${p.name}') must be ${p.type.width} bits wide, got sort ${args[i].sort}`), program);
    }
  }
  const ex = new Executor(program, opts.maxSteps ?? DEFAULT_MAX_STEPS);
  const st: State = { pc: o.TRUE, asm: o.TRUE, mem, locals: new Map(), dead: false };
  const width = fn.type.ret.kind === 'int' ? fn.type.ret.width : fn.type.ret.kind === 'pointer' ? 64 : 0;
  try {
    let value: Val | undefined;
    let paths = 0;
    try {
      const r = ex.inline(st, fn, [...args], fn.span);
      value = r.value;
      paths = r.paths;
    } catch (e) {
      if (!(e instanceof PathDied)) throw e;
      st.mem = mem; // every path panics: nothing is reachable
    }
    let ret: Term;
    if (width === 0) ret = o.TRUE;
    else if (value === undefined) ret = bvConst(0n, width);
    else ret = isTerm(value) ? value : address(value);
    return { ok: true, ret, mem: st.mem, safety: ex.safety, stats: { paths, steps: ex.steps } };
  } catch (e) {
    if (e instanceof CError) return failed(e.diagnostic, program);
    // The depth limits should make this unreachable; if not, it is still the input's nesting, not a bug.
    if (e instanceof RangeError && /call stack/i.test(e.message)) return failed(execTooDeep(ex.at, MAX_EXEC_DEPTH), program);
    const why = e instanceof Error ? e.message : String(e);
    return failed(internal(ex.at, why), program);
  }
}

function failed(d: CDiagnostic, program: CProgram): ExecResult {
  return { ok: false, error: withDetail(d, program.files) };
}
