/**
 * Smart constructors for terms. Each one checks sorts, folds constants and
 * applies a few local rewrites that are always sound (x & 0 = 0, If(c, a, a)
 * = a, ...). Semantics are SMT-LIB's (division by zero included), which is
 * also what z3py gives.
 */
import {
  BOOL,
  type FuncDecl,
  type Sort,
  type Term,
  boolConst,
  bvConst,
  bvValue,
  isFalse,
  isTrue,
  mask,
  mk,
  norm,
  sortName,
  toSigned,
} from './term.ts';

/** Thrown when terms of mismatched sorts are combined. */
export class SortError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SortError';
  }
}

export const TRUE = boolConst(true);
export const FALSE = boolConst(false);

function needBool(t: Term, what: string): void {
  if (t.sort !== BOOL) throw new SortError(`${what} expects a Bool, got ${sortName(t.sort)}`);
}

function needBv(t: Term, what: string): number {
  if (t.sort === BOOL) throw new SortError(`${what} expects a bit-vector, got Bool`);
  return t.sort;
}

function sameBv(a: Term, b: Term, what: string): number {
  const w = needBv(a, what);
  needBv(b, what);
  if (a.sort !== b.sort) {
    throw new SortError(`${what}: bit-vector widths differ (${a.sort} and ${b.sort})`);
  }
  return w;
}

// ---------------------------------------------------------------- boolean

export function not(a: Term): Term {
  needBool(a, 'Not');
  if (a.op === 'const') return boolConst(!a.value);
  if (a.op === 'not') return a.args[0];
  return mk('not', BOOL, [a]);
}

/**
 * An n-ary And (`op` 'and', identity true, absorbing false) or Or (`op`
 * 'or', the duals), flattened, without repeats: the absorbing constant if
 * any argument is it or some argument's negation is another; the identity
 * for no arguments; the argument itself for one.
 */
function junction(op: 'and' | 'or', xs: readonly Term[]): Term {
  const [unit, zero, name] = op === 'and' ? [TRUE, FALSE, 'And'] : [FALSE, TRUE, 'Or'];
  const [isUnit, isZero] = op === 'and' ? [isTrue, isFalse] : [isFalse, isTrue];
  const out: Term[] = [];
  const seen = new Set<number>();
  const push = (t: Term): boolean => {
    needBool(t, name);
    if (isUnit(t)) return true;
    if (isZero(t)) return false;
    if (t.op === op) {
      for (const u of t.args) if (!push(u)) return false;
      return true;
    }
    if (!seen.has(t.id)) {
      seen.add(t.id);
      out.push(t);
    }
    return true;
  };
  for (const x of xs) if (!push(x)) return zero;
  for (const t of out) if (t.op === 'not' && seen.has(t.args[0].id)) return zero;
  if (out.length === 0) return unit;
  if (out.length === 1) return out[0];
  return mk(op, BOOL, out);
}

export function and(...xs: Term[]): Term {
  return junction('and', xs);
}

export function or(...xs: Term[]): Term {
  return junction('or', xs);
}

export function implies(a: Term, b: Term): Term {
  needBool(a, 'Implies');
  needBool(b, 'Implies');
  if (isFalse(a) || isTrue(b)) return TRUE;
  if (isTrue(a)) return b;
  if (isFalse(b)) return not(a);
  if (a === b) return TRUE;
  return mk('implies', BOOL, [a, b]);
}

export function ite(c: Term, a: Term, b: Term): Term {
  needBool(c, 'If');
  if (a.sort !== b.sort) {
    throw new SortError(`If: branches have different sorts (${sortName(a.sort)} and ${sortName(b.sort)})`);
  }
  if (isTrue(c)) return a;
  if (isFalse(c)) return b;
  if (a === b) return a;
  if (c.op === 'not') return ite(c.args[0], b, a);
  if (a.sort === BOOL) {
    if (isTrue(a) && isFalse(b)) return c;
    if (isFalse(a) && isTrue(b)) return not(c);
    if (isTrue(a)) return or(c, b);
    if (isFalse(b)) return and(c, a);
  }
  // If(c, If(c, x, y), z) = If(c, x, z) and If(c, x, If(c, y, z)) = If(c, x, z)
  if (a.op === 'ite' && a.args[0] === c) return ite(c, a.args[1], b);
  if (b.op === 'ite' && b.args[0] === c) return ite(c, a, b.args[2]);
  return mk('ite', a.sort, [c, a, b]);
}

export function eq(a: Term, b: Term): Term {
  if (a.sort !== b.sort) {
    throw new SortError(`==: sorts differ (${sortName(a.sort)} and ${sortName(b.sort)})`);
  }
  if (a === b) return TRUE;
  if (a.op === 'const' && b.op === 'const') return boolConst(a.value === b.value);
  if (a.sort === BOOL) {
    if (isTrue(a)) return b;
    if (isTrue(b)) return a;
    if (isFalse(a)) return not(b);
    if (isFalse(b)) return not(a);
  }
  // An If with two constant leaves compared against a constant decides its condition.
  if (b.op === 'const' && a.op === 'ite' && a.args[1].op === 'const' && a.args[2].op === 'const') {
    return ite(a.args[0], eq(a.args[1], b), eq(a.args[2], b));
  }
  if (a.op === 'const' && b.op === 'ite' && b.args[1].op === 'const' && b.args[2].op === 'const') {
    return ite(b.args[0], eq(a, b.args[1]), eq(a, b.args[2]));
  }
  const [x, y] = a.id < b.id ? [a, b] : [b, a];
  return mk('eq', BOOL, [x, y]);
}

export function distinct(...xs: Term[]): Term {
  if (xs.length < 2) return TRUE;
  for (const x of xs) {
    if (x.sort !== xs[0].sort) throw new SortError('Distinct: arguments have different sorts');
  }
  if (xs.length === 2) return not(eq(xs[0], xs[1]));
  const ids = new Set(xs.map((x) => x.id));
  if (ids.size < xs.length) return FALSE;
  if (xs.every((x) => x.op === 'const')) {
    return boolConst(new Set(xs.map((x) => String(x.value))).size === xs.length);
  }
  return mk('distinct', BOOL, xs);
}

/** Quantifier over the given bound variables (built with `boundVar`). */
export function forall(vars: Term[], body: Term): Term {
  needBool(body, 'ForAll');
  if (vars.length === 0 || body.op === 'const') return body;
  return mk('forall', BOOL, [...vars, body], { params: [vars.length] });
}

export function exists(vars: Term[], body: Term): Term {
  needBool(body, 'Exists');
  if (vars.length === 0 || body.op === 'const') return body;
  return mk('exists', BOOL, [...vars, body], { params: [vars.length] });
}

// ---------------------------------------------------------- uninterpreted functions

export function declareFun(name: string, domain: Sort[], range: Sort): FuncDecl {
  return { name, domain, range };
}

export function app(decl: FuncDecl, args: Term[]): Term {
  if (args.length !== decl.domain.length) {
    throw new SortError(`${decl.name} takes ${decl.domain.length} arguments, got ${args.length}`);
  }
  args.forEach((a, i) => {
    if (a.sort !== decl.domain[i]) {
      throw new SortError(
        `${decl.name}: argument ${i + 1} should be ${sortName(decl.domain[i])}, got ${sortName(a.sort)}`,
      );
    }
  });
  if (decl.domain.length === 0) return mk('var', decl.range, [], { name: decl.name });
  return mk('app', decl.range, args, { decl });
}

// ----------------------------------------------------------- comparisons

type Cmp = 'ult' | 'ule' | 'ugt' | 'uge' | 'slt' | 'sle' | 'sgt' | 'sge';

function cmp(op: Cmp, a: Term, b: Term): Term {
  const w = sameBv(a, b, op);
  const x = bvValue(a);
  const y = bvValue(b);
  if (x !== undefined && y !== undefined) {
    const signed = op[0] === 's';
    const p = signed ? toSigned(x, w) : x;
    const q = signed ? toSigned(y, w) : y;
    switch (op) {
      case 'ult': case 'slt': return boolConst(p < q);
      case 'ule': case 'sle': return boolConst(p <= q);
      case 'ugt': case 'sgt': return boolConst(p > q);
      case 'uge': case 'sge': return boolConst(p >= q);
    }
  }
  if (a === b) return boolConst(op.endsWith('e'));
  if (op === 'ult' && y === 0n) return FALSE;
  if (op === 'uge' && y === 0n) return TRUE;
  if (op === 'ule' && x === 0n) return TRUE;
  if (op === 'ugt' && x === 0n) return FALSE;
  return mk(op, BOOL, [a, b]);
}

export const ult = (a: Term, b: Term): Term => cmp('ult', a, b);
export const ule = (a: Term, b: Term): Term => cmp('ule', a, b);
export const ugt = (a: Term, b: Term): Term => cmp('ugt', a, b);
export const uge = (a: Term, b: Term): Term => cmp('uge', a, b);
export const slt = (a: Term, b: Term): Term => cmp('slt', a, b);
export const sle = (a: Term, b: Term): Term => cmp('sle', a, b);
export const sgt = (a: Term, b: Term): Term => cmp('sgt', a, b);
export const sge = (a: Term, b: Term): Term => cmp('sge', a, b);

// ----------------------------------------------------------- arithmetic

/** Concrete semantics of the binary bit-vector operators (SMT-LIB). */
export function evalBvBinary(op: string, x: bigint, y: bigint, w: number): bigint {
  const m = mask(w);
  const bw = BigInt(w);
  switch (op) {
    case 'add': return (x + y) & m;
    case 'sub': return (x - y) & m;
    case 'mul': return (x * y) & m;
    case 'bvand': return x & y;
    case 'bvor': return x | y;
    case 'bvxor': return x ^ y;
    case 'udiv': return y === 0n ? m : x / y;
    case 'urem': return y === 0n ? x : x % y;
    case 'shl': return y >= bw ? 0n : (x << y) & m;
    case 'lshr': return y >= bw ? 0n : x >> y;
    case 'ashr': {
      const sx = toSigned(x, w);
      return norm(y >= bw ? (sx < 0n ? -1n : 0n) : sx >> y, w);
    }
    case 'sdiv': {
      const sx = toSigned(x, w);
      const sy = toSigned(y, w);
      if (sy === 0n) return sx < 0n ? 1n : m;
      return norm(sx / sy, w); // BigInt division truncates toward zero, like bvsdiv
    }
    case 'srem': {
      const sx = toSigned(x, w);
      const sy = toSigned(y, w);
      if (sy === 0n) return x;
      return norm(sx % sy, w); // sign follows the dividend
    }
    case 'smod': {
      const sx = toSigned(x, w);
      const sy = toSigned(y, w);
      if (sy === 0n) return x;
      let r = sx % sy;
      if (r !== 0n && (r < 0n) !== (sy < 0n)) r += sy; // sign follows the divisor
      return norm(r, w);
    }
  }
  throw new Error(`unknown bit-vector operator ${op}`);
}

type Bin = 'add' | 'sub' | 'mul' | 'udiv' | 'urem' | 'sdiv' | 'srem' | 'smod' | 'bvand' | 'bvor' | 'bvxor' | 'shl' | 'lshr' | 'ashr';

const commutative = new Set<Bin>(['add', 'mul', 'bvand', 'bvor', 'bvxor']);

function bin(op: Bin, a: Term, b: Term): Term {
  const w = sameBv(a, b, op);
  const x = bvValue(a);
  const y = bvValue(b);
  if (x !== undefined && y !== undefined) return bvConst(evalBvBinary(op, x, y, w), w);
  const m = mask(w);
  switch (op) {
    case 'add':
      if (x === 0n) return b;
      if (y === 0n) return a;
      break;
    case 'sub':
      if (y === 0n) return a;
      if (a === b) return bvConst(0n, w);
      break;
    case 'mul':
      if (x === 0n || y === 0n) return bvConst(0n, w);
      if (x === 1n) return b;
      if (y === 1n) return a;
      break;
    case 'bvand':
      if (x === 0n || y === 0n) return bvConst(0n, w);
      if (x === m) return b;
      if (y === m) return a;
      if (a === b) return a;
      break;
    case 'bvor':
      if (x === m || y === m) return bvConst(m, w);
      if (x === 0n) return b;
      if (y === 0n) return a;
      if (a === b) return a;
      break;
    case 'bvxor':
      if (x === 0n) return b;
      if (y === 0n) return a;
      if (a === b) return bvConst(0n, w);
      break;
    case 'shl':
    case 'lshr':
      if (y === 0n) return a;
      if (y !== undefined && y >= BigInt(w)) return bvConst(0n, w);
      if (x === 0n) return a;
      break;
    case 'ashr':
      if (y === 0n) return a;
      break;
    case 'udiv':
    case 'sdiv':
      if (y === 1n) return a;
      break;
  }
  if (commutative.has(op) && b.id < a.id) return mk(op, w, [b, a]);
  return mk(op, w, [a, b]);
}

export const add = (a: Term, b: Term): Term => bin('add', a, b);
export const sub = (a: Term, b: Term): Term => bin('sub', a, b);
export const mul = (a: Term, b: Term): Term => bin('mul', a, b);
export const udiv = (a: Term, b: Term): Term => bin('udiv', a, b);
export const urem = (a: Term, b: Term): Term => bin('urem', a, b);
export const sdiv = (a: Term, b: Term): Term => bin('sdiv', a, b);
export const srem = (a: Term, b: Term): Term => bin('srem', a, b);
export const smod = (a: Term, b: Term): Term => bin('smod', a, b);
export const bvand = (a: Term, b: Term): Term => bin('bvand', a, b);
export const bvor = (a: Term, b: Term): Term => bin('bvor', a, b);
export const bvxor = (a: Term, b: Term): Term => bin('bvxor', a, b);
export const shl = (a: Term, b: Term): Term => bin('shl', a, b);
export const lshr = (a: Term, b: Term): Term => bin('lshr', a, b);
export const ashr = (a: Term, b: Term): Term => bin('ashr', a, b);

export function neg(a: Term): Term {
  const w = needBv(a, 'negation');
  const x = bvValue(a);
  if (x !== undefined) return bvConst(-x, w);
  if (a.op === 'neg') return a.args[0];
  return mk('neg', w, [a]);
}

export function bvnot(a: Term): Term {
  const w = needBv(a, '~');
  const x = bvValue(a);
  if (x !== undefined) return bvConst(~x, w);
  if (a.op === 'bvnot') return a.args[0];
  return mk('bvnot', w, [a]);
}

export function extract(hi: number, lo: number, a: Term): Term {
  const w = needBv(a, 'Extract');
  if (!(Number.isInteger(hi) && Number.isInteger(lo) && 0 <= lo && lo <= hi && hi < w)) {
    throw new SortError(`Extract(${hi}, ${lo}) does not fit a ${w}-bit value`);
  }
  if (lo === 0 && hi === w - 1) return a;
  const x = bvValue(a);
  if (x !== undefined) return bvConst(x >> BigInt(lo), hi - lo + 1);
  if (a.op === 'extract') {
    const base = a.params![1];
    return extract(hi + base, lo + base, a.args[0]);
  }
  if ((a.op === 'zext' || a.op === 'sext') && hi < a.args[0].sort) return extract(hi, lo, a.args[0]);
  if (a.op === 'zext' && lo >= a.args[0].sort) return bvConst(0n, hi - lo + 1);
  return mk('extract', hi - lo + 1, [a], { params: [hi, lo] });
}

export function zext(n: number, a: Term): Term {
  const w = needBv(a, 'ZeroExt');
  if (!(Number.isInteger(n) && n >= 0)) throw new SortError(`ZeroExt by ${n} bits`);
  if (n === 0) return a;
  const x = bvValue(a);
  if (x !== undefined) return bvConst(x, w + n);
  if (a.op === 'zext') return zext(n + a.params![0], a.args[0]);
  return mk('zext', w + n, [a], { params: [n] });
}

export function sext(n: number, a: Term): Term {
  const w = needBv(a, 'SignExt');
  if (!(Number.isInteger(n) && n >= 0)) throw new SortError(`SignExt by ${n} bits`);
  if (n === 0) return a;
  const x = bvValue(a);
  if (x !== undefined) return bvConst(toSigned(x, w), w + n);
  return mk('sext', w + n, [a], { params: [n] });
}

export function concat(...xs: Term[]): Term {
  if (xs.length === 0) throw new SortError('Concat needs at least one argument');
  let width = 0;
  for (const x of xs) width += needBv(x, 'Concat');
  if (xs.length === 1) return xs[0];
  if (xs.every((x) => x.op === 'const')) {
    let v = 0n;
    for (const x of xs) v = (v << BigInt(x.sort)) | (x.value as bigint);
    return bvConst(v, width);
  }
  return mk('concat', width, xs);
}

/** Resizes a bit-vector: truncates, or zero/sign-extends. */
export function resize(a: Term, width: number, signed: boolean): Term {
  if (a.sort === width) return a;
  if (a.sort > width) return extract(width - 1, 0, a);
  return signed ? sext(width - a.sort, a) : zext(width - a.sort, a);
}

export type { Sort };
