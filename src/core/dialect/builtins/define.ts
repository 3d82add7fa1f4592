/**
 * Small helpers for declaring the built-in modules: a function with its
 * signature and documentation (shown by the editor catalog), and the
 * flattening of z3py's variadic-or-list arguments.
 */
import type { Term } from '../../smt/term.ts';
import { expr, isTerm } from '../values.ts';
import { Builtin, type CallSite, type NativeFn, type PyValue } from '../objects.ts';

/** A documented built-in function named `qualified` (e.g. "z3.ULT"). */
export function fn(qualified: string, sig: string, doc: string, impl: NativeFn, acceptsKeywords = false): Builtin {
  return new Builtin(qualified, impl, acceptsKeywords, { sig, doc });
}

/** A documented built-in whose result is a term: each call hands out a new expression object, as z3py does. */
export function termFn(
  qualified: string,
  sig: string,
  doc: string,
  impl: (args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, site: CallSite) => Term,
): Builtin {
  return fn(qualified, sig, doc, (args, kw, site) => expr(impl(args, kw, site)));
}

/** z3py's `_get_args`: `f(a, b)` and `f([a, b])` mean the same. */
export function flatArgs(args: PyValue[]): PyValue[] {
  if (args.length === 1) {
    const a = args[0];
    if (typeof a === 'object' && a !== null && !isTerm(a) && (a.kind === 'list' || a.kind === 'tuple')) return [...a.items];
  }
  return args;
}

/**
 * The solver-level name of a constant or function a spec declares
 * (z3.BitVec('x', 32), util.FreshBitVec('x', dt.pid_t), z3.Function(...)):
 * prefixed so that it never equals one of the verifier's own names
 * (`arg.pid`, `probe!0`, `procs.state`, ...), and tagged with its sort,
 * because z3py keeps `BitVec('x', 32)` and `BitVec('x', 64)` apart while
 * the solver facade keys constants by name.
 */
export function userSymbol(name: string, sortTag: string): string {
  return `spec:${name}:${sortTag}`;
}

/** The sort tag of userSymbol: "bool" or the bit width. */
export function sortTag(sort: number): string {
  return sort === 0 ? 'bool' : `bv${sort}`;
}
