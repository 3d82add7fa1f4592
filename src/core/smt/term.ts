/**
 * The term language every part of the verifier speaks: hash-consed bit-vector
 * and boolean terms with uninterpreted functions, close to SMT-LIB's QF_UFBV.
 *
 * Terms are immutable and structurally shared: building the same term twice
 * returns the same object, so `a === b` is a cheap sufficient test for
 * "definitely equal". Construct terms with the smart constructors in
 * `ops.ts`, which also fold constants; `mk` here is the raw constructor.
 *
 * A sort is a number: 0 is Bool, w > 0 is a bit-vector of width w.
 */

export type Sort = number;
export const BOOL: Sort = 0;

export function sortName(s: Sort): string {
  return s === BOOL ? 'Bool' : `(_ BitVec ${s})`;
}

/** An uninterpreted function symbol. Equal names must mean equal signatures. */
export interface FuncDecl {
  readonly name: string;
  readonly domain: readonly Sort[];
  readonly range: Sort;
}

export type Op =
  | 'const' // value: boolean | bigint
  | 'var' // name; bound vars have `bound`
  | 'app' // decl(args)
  // boolean
  | 'not'
  | 'and'
  | 'or'
  | 'implies'
  | 'ite'
  | 'eq'
  | 'distinct'
  | 'forall'
  | 'exists'
  // bit-vector comparisons
  | 'ult'
  | 'ule'
  | 'ugt'
  | 'uge'
  | 'slt'
  | 'sle'
  | 'sgt'
  | 'sge'
  // bit-vector arithmetic
  | 'add'
  | 'sub'
  | 'mul'
  | 'neg'
  | 'udiv'
  | 'urem'
  | 'sdiv'
  | 'srem'
  | 'smod'
  | 'bvand'
  | 'bvor'
  | 'bvxor'
  | 'bvnot'
  | 'shl'
  | 'lshr'
  | 'ashr'
  | 'concat'
  | 'extract' // params [hi, lo]
  | 'zext' // params [n]
  | 'sext'; // params [n]

export class Term {
  constructor(
    readonly id: number,
    readonly op: Op,
    readonly sort: Sort,
    readonly args: readonly Term[],
    /** `const`: the value (bigint for bit-vectors, already reduced mod 2^w). */
    readonly value: bigint | boolean | undefined,
    /** `var`: the symbol name. */
    readonly name: string | undefined,
    /** `app`: the function symbol. */
    readonly decl: FuncDecl | undefined,
    /** `extract`: [hi, lo]; `zext`/`sext`: [n]; quantifiers: number of bound vars first in args. */
    readonly params: readonly number[] | undefined,
    /** True when a bound (quantified) variable occurs free in this term. */
    readonly hasBound: boolean,
  ) {}

  toString(): string {
    return show(this);
  }
}

// The hash-cons table, one per process or worker: equal terms built anywhere
// in it are the same object.
const table = new Map<string, Term>();
let nextId = 1;
const boundNames = new Set<string>();

function key(
  op: Op,
  sort: Sort,
  args: readonly Term[],
  value: bigint | boolean | undefined,
  name: string | undefined,
  decl: FuncDecl | undefined,
  params: readonly number[] | undefined,
): string {
  let k = `${op}:${sort}`;
  if (value !== undefined) k += `:${value}`;
  if (name !== undefined) k += `:${name}`;
  if (decl !== undefined) k += `:${decl.name}`;
  if (params !== undefined) k += `:${params.join(',')}`;
  for (const a of args) k += `,${a.id}`;
  return k;
}

/** Raw hash-consing constructor. Prefer the smart constructors of `ops.ts`. */
export function mk(
  op: Op,
  sort: Sort,
  args: readonly Term[],
  extra: {
    value?: bigint | boolean;
    name?: string;
    decl?: FuncDecl;
    params?: readonly number[];
    bound?: boolean;
  } = {},
): Term {
  const k = key(op, sort, args, extra.value, extra.name, extra.decl, extra.params);
  const hit = table.get(k);
  if (hit) return hit;
  let hasBound = extra.bound === true;
  if (!hasBound) for (const a of args) if (a.hasBound) hasBound = true;
  if (op === 'forall' || op === 'exists') {
    // The binder closes its own variables; it stays "bound" only if another
    // bound variable (of an enclosing quantifier) occurs in its body.
    const nb = extra.params![0];
    const own = new Set(args.slice(0, nb).map((v) => v.name));
    hasBound = occursBoundOtherThan(args[nb], own);
  }
  const t = new Term(nextId++, op, sort, args, extra.value, extra.name, extra.decl, extra.params, hasBound);
  table.set(k, t);
  return t;
}

function occursBoundOtherThan(t: Term, own: Set<string | undefined>): boolean {
  const seen = new Set<number>();
  const stack = [t];
  while (stack.length) {
    const u = stack.pop()!;
    if (!u.hasBound || seen.has(u.id)) continue;
    seen.add(u.id);
    if (u.op === 'var' && boundNames.has(u.name!) && !own.has(u.name)) return true;
    for (const a of u.args) stack.push(a);
  }
  return false;
}

export function mask(width: number): bigint {
  return (1n << BigInt(width)) - 1n;
}

/** Reduces a bigint to the unsigned range of `width` bits. */
export function norm(v: bigint, width: number): bigint {
  return v & mask(width);
}

/** Interprets an unsigned `width`-bit value as two's complement. */
export function toSigned(v: bigint, width: number): bigint {
  const top = 1n << BigInt(width - 1);
  return v & top ? v - (1n << BigInt(width)) : v;
}

export function boolConst(b: boolean): Term {
  return mk('const', BOOL, [], { value: b });
}

export function bvConst(v: bigint | number, width: number): Term {
  if (!Number.isInteger(width) || width <= 0) throw new Error(`bad bit-vector width ${width}`);
  return mk('const', width, [], { value: norm(BigInt(v), width) });
}

/** A free constant (zero-arity symbol). */
export function variable(name: string, sort: Sort): Term {
  return mk('var', sort, [], { name });
}

/** A variable meant to be bound by `forall`/`exists`. */
export function boundVar(name: string, sort: Sort): Term {
  boundNames.add(name);
  return mk('var', sort, [], { name, bound: true });
}

let freshCounter = 0;

/** A fresh free constant whose name is unique in this process. */
export function fresh(prefix: string, sort: Sort): Term {
  return variable(`${prefix}!${++freshCounter}`, sort);
}

export function freshName(prefix: string): string {
  return `${prefix}!${++freshCounter}`;
}

export function isTrue(t: Term): boolean {
  return t.op === 'const' && t.value === true;
}

export function isFalse(t: Term): boolean {
  return t.op === 'const' && t.value === false;
}

/** The unsigned value of a constant bit-vector term, or undefined. */
export function bvValue(t: Term): bigint | undefined {
  return t.op === 'const' && typeof t.value === 'bigint' ? t.value : undefined;
}

/** A compact, human-readable rendering (z3py-like), for errors and debugging. */
function show(t: Term, depth = 6): string {
  if (depth < 0) return '…';
  switch (t.op) {
    case 'const':
      if (typeof t.value === 'boolean') return t.value ? 'True' : 'False';
      return t.value! < 10n ? `${t.value}` : `0x${t.value!.toString(16)}`;
    case 'var':
      return t.name!;
    case 'app':
      return `${t.decl!.name}(${t.args.map((a) => show(a, depth - 1)).join(', ')})`;
    case 'extract':
      return `Extract(${t.params![0]}, ${t.params![1]}, ${show(t.args[0], depth - 1)})`;
    case 'zext':
      return `ZeroExt(${t.params![0]}, ${show(t.args[0], depth - 1)})`;
    case 'sext':
      return `SignExt(${t.params![0]}, ${show(t.args[0], depth - 1)})`;
    default: {
      const infix: Partial<Record<Op, string>> = {
        add: '+', sub: '-', mul: '*', bvand: '&', bvor: '|', bvxor: '^', shl: '<<', ashr: '>>',
        eq: '==', slt: '<', sle: '<=', sgt: '>', sge: '>=', sdiv: '/', smod: '%',
      };
      const sym = infix[t.op];
      if (sym && t.args.length === 2) {
        return `(${show(t.args[0], depth - 1)} ${sym} ${show(t.args[1], depth - 1)})`;
      }
      const names: Partial<Record<Op, string>> = {
        not: 'Not', and: 'And', or: 'Or', implies: 'Implies', ite: 'If', distinct: 'Distinct',
        ult: 'ULT', ule: 'ULE', ugt: 'UGT', uge: 'UGE', udiv: 'UDiv', urem: 'URem', srem: 'SRem',
        lshr: 'LShR', neg: '-', bvnot: '~', concat: 'Concat', forall: 'ForAll', exists: 'Exists',
      };
      return `${names[t.op] ?? t.op}(${t.args.map((a) => show(a, depth - 1)).join(', ')})`;
    }
  }
}
