/**
 * Conversions between Python values and z3 terms, with z3py's rules: a
 * Python int next to a bit-vector becomes a BitVecVal of that width (mod
 * 2^w), a Python bool next to a Bool becomes BoolVal, and anything else is a
 * sort or type error with a message that names both sides.
 */
import { BOOL, type Sort, type Term, boolConst, bvConst } from '../smt/term.ts';
import { type Span, through } from '../span.ts';
import { accessorNotValue, badArgument, sortMismatch, typeError, valueError } from './errors.ts';
import { describe, intOf, isPyInt, isTerm, sortLabel, termOf } from './values.ts';
import type { CallSite, PyValue } from './objects.ts';

/** "64-bit bit-vector" / "Bool". */
export function sortPhrase(s: Sort): string {
  return s === BOOL ? 'Bool' : `${s}-bit bit-vector`;
}

/**
 * Throws SPEC029 when `v` is an Accessor or Refcnt accessor: a map read
 * without all its indices (`old.procs[pid].ofile[fd]`) or a count read
 * without its call (`old.procs[pid].nr_fds`), used where a value is needed.
 */
export function mustBeValue(v: PyValue, span: Span): void {
  const a = accessorInfo(v);
  if (a) throw accessorNotValue(span, a.what, a.hint);
}

/** For an Accessor or Refcnt accessor: what it is and how to read it instead; else undefined. */
export function accessorInfo(v: PyValue): { what: string; hint: string } | undefined {
  if (typeof v !== 'object' || v === null || isTerm(v)) return undefined;
  if (v.kind === 'refcnt') {
    return { what: v.field.path, hint: `read the count with a call, e.g. old.${v.field.path.replace('.', '[owner].')}()` };
  }
  if (v.kind === 'accessor') {
    const names = ['i', 'j', 'k'];
    const shown = v.field.index.map((_, i) => names[i]);
    const call = `old.${v.field.path.replace('.', `[${shown[0]}].`)}(${shown.slice(1).join(', ')})`;
    const n = v.field.index.length;
    if (v.path.length === n) {
      return { what: `${v.field.path} indexed with []`, hint: `subscripting a map does not read it; read with call syntax: ${call}` };
    }
    return { what: `${v.field.path} with ${v.path.length} of its ${n} indices`, hint: `read it with call syntax: ${call}` };
  }
  return undefined;
}

/** Converts `v` to a term of sort `sort`, or returns undefined if z3py would not. */
export function tryToSort(v: PyValue, sort: Sort): Term | undefined {
  if (isTerm(v)) return v.term.sort === sort ? v.term : undefined;
  if (sort === BOOL) return typeof v === 'boolean' ? boolConst(v) : undefined;
  if (isPyInt(v)) return bvConst(intOf(v), sort);
  return undefined;
}

/** A z3 Bool from a Bool term or a Python bool (z3.And/Or/Not/Implies/If conditions). */
export function toBool(v: PyValue, span: Span, what: string): Term {
  mustBeValue(v, span);
  if (isTerm(v)) {
    if (v.term.sort !== BOOL) throw sortMismatch(span, `${what} expects a Bool, got a ${v.term.sort}-bit bit-vector`);
    return v.term;
  }
  if (typeof v === 'boolean') return boolConst(v);
  throw typeError(span, `${what} expects a Bool, got ${describe(v)}`);
}

/** A bit-vector term (no Python ints: the caller has nothing to take a width from). */
export function toBv(v: PyValue, span: Span, what: string): Term {
  mustBeValue(v, span);
  if (isTerm(v)) {
    if (v.term.sort === BOOL) throw sortMismatch(span, `${what} expects a bit-vector, got a Bool`);
    return v.term;
  }
  if (isPyInt(v)) {
    throw typeError(span, `${what} expects a z3 bit-vector, got ${describe(v)}`, 'wrap Python ints with z3.BitVecVal(k, sort)');
  }
  throw typeError(span, `${what} expects a z3 bit-vector, got ${describe(v)}`);
}

/**
 * Two operands of one bit-vector operation: at least one must be a
 * bit-vector; a Python int on the other side takes its width.
 */
export function bvPair(pa: PyValue, pb: PyValue, spans: readonly [Span, Span], what: string): [Term, Term] {
  mustBeValue(pa, spans[0]);
  mustBeValue(pb, spans[1]);
  const a = termOf(pa);
  const b = termOf(pb);
  if (a && a.sort === BOOL) throw sortMismatch(spans[0], `${what} expects bit-vectors, got a Bool`);
  if (b && b.sort === BOOL) throw sortMismatch(spans[1], `${what} expects bit-vectors, got a Bool`);
  if (a && b) {
    if (a.sort !== b.sort) {
      throw sortMismatch(
        through(spans[0], spans[1]),
        `sort mismatch in ${what}: ${sortPhrase(a.sort)} and ${sortPhrase(b.sort)}`,
        'use ZeroExt, SignExt or Extract to make the widths agree',
      );
    }
    return [a, b];
  }
  if (a) return [a, operandToBv(pb, a.sort, spans[1], what)];
  if (b) return [operandToBv(pa, b.sort, spans[0], what), b];
  throw typeError(through(spans[0], spans[1]), `${what} needs at least one z3 bit-vector, got ${describe(pa)} and ${describe(pb)}`);
}

function operandToBv(v: PyValue, width: number, span: Span, what: string): Term {
  if (isPyInt(v)) return bvConst(intOf(v), width);
  throw typeError(span, `${what} expects a bit-vector or int, got ${describe(v)}`);
}

/** A concrete Python int argument (Extract bounds, widths, ...). */
export function pyInt(v: PyValue, span: Span, what: string): bigint {
  if (isPyInt(v)) return intOf(v);
  if (isTerm(v) && v.term.op === 'const' && typeof v.term.value === 'bigint') {
    throw typeError(span, `${what} expects a Python int, got a z3 constant`, 'use a plain Python int here');
  }
  throw typeError(span, `${what} expects a Python int, got ${describe(v)}`);
}

/** A small non-negative Python int (a width or a bit position). */
export function smallInt(v: PyValue, span: Span, what: string, max = 1 << 16): number {
  const n = pyInt(v, span, what);
  if (n < 0n || n > BigInt(max)) throw valueError(span, `${what} must be between 0 and ${max}, got ${n}`);
  return Number(n);
}

/** The widest bit-vector a spec may build. */
export const MAX_WIDTH = 4096;

/** A width from an int or a sort (z3.BitVecVal(v, 64) and z3.BitVecVal(v, dt.pid_t)). */
export function widthArg(v: PyValue, span: Span, what: string): number {
  if (v !== null && typeof v === 'object' && !isTerm(v) && v.kind === 'sort') {
    if (v.sort === BOOL) throw sortMismatch(span, `${what} expects a bit-vector sort, got Bool`);
    return v.sort;
  }
  const w = smallInt(v, span, what, MAX_WIDTH);
  if (w === 0) throw valueError(span, `${what}: a bit-vector width must be positive`);
  return w;
}

/** Checks the positional argument count of a native function. */
export function arity(site: CallSite, name: string, args: readonly PyValue[], min: number, max = min): void {
  if (args.length >= min && args.length <= max) return;
  const expected =
    min === max
      ? `${min} argument${min === 1 ? '' : 's'}`
      : max === Infinity
        ? `at least ${min} argument${min === 1 ? '' : 's'}`
        : `${min} to ${max} arguments`;
  throw badArgument(site.span, `${name}() takes ${expected} but ${args.length} ${args.length === 1 ? 'was' : 'were'} given`);
}

/** The span of positional argument i (the call's span when there is none). */
export function argSpan(site: CallSite, i: number): Span {
  return site.argSpans[i] ?? site.span;
}

