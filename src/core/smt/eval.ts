/**
 * Concrete evaluation of terms. Used to replay counterexamples independently
 * of the solver, to show values, and to run the kernel on concrete states.
 */
import { evalBvBinary } from './ops.ts';
import { BOOL, type FuncDecl, type Term, norm, toSigned } from './term.ts';

export type Value = bigint | boolean;

/** Where the values of free symbols come from. */
export interface Interpretation {
  /** The value of a free constant. */
  constant(name: string, sort: number): Value;
  /** The value of an uninterpreted function at concrete arguments. */
  apply(decl: FuncDecl, args: Value[]): Value;
}

/** An interpretation that gives every symbol the default value (0 / false). */
export const zeroInterpretation: Interpretation = {
  constant: (_n, sort) => (sort === BOOL ? false : 0n),
  apply: (decl) => (decl.range === BOOL ? false : 0n),
};

/**
 * Evaluates a term under an interpretation. Results are memoised per call
 * in `memo` (pass the same map to evaluate many terms of one DAG).
 */
export function evaluate(t: Term, interp: Interpretation, memo = new Map<number, Value>()): Value {
  return new Evaluator(interp, memo).run(t, new Map());
}

class Evaluator {
  constructor(
    private readonly interp: Interpretation,
    private readonly memo: Map<number, Value>,
  ) {}

  run(t: Term, bound: Map<string, Value>): Value {
    const cacheable = !t.hasBound;
    if (cacheable) {
      const hit = this.memo.get(t.id);
      if (hit !== undefined) return hit;
    }
    const v = this.compute(t, bound);
    if (cacheable) this.memo.set(t.id, v);
    return v;
  }

  private bv(t: Term, bound: Map<string, Value>): bigint {
    return this.run(t, bound) as bigint;
  }

  private bool(t: Term, bound: Map<string, Value>): boolean {
    return this.run(t, bound) as boolean;
  }

  private compute(t: Term, bound: Map<string, Value>): Value {
    const a = t.args;
    const w = t.sort;
    switch (t.op) {
      case 'const':
        return t.value!;
      case 'var': {
        const b = bound.get(t.name!);
        if (b !== undefined) return b;
        return this.interp.constant(t.name!, t.sort);
      }
      case 'app':
        return this.interp.apply(t.decl!, a.map((x) => this.run(x, bound)));
      case 'not':
        return !this.bool(a[0], bound);
      case 'and':
        for (const x of a) if (!this.bool(x, bound)) return false;
        return true;
      case 'or':
        for (const x of a) if (this.bool(x, bound)) return true;
        return false;
      case 'implies':
        return !this.bool(a[0], bound) || this.bool(a[1], bound);
      case 'ite':
        return this.bool(a[0], bound) ? this.run(a[1], bound) : this.run(a[2], bound);
      case 'eq':
        return this.run(a[0], bound) === this.run(a[1], bound);
      case 'distinct': {
        const vs = a.map((x) => String(this.run(x, bound)));
        return new Set(vs).size === vs.length;
      }
      case 'forall':
      case 'exists':
        throw new QuantifierEvalError();
      case 'ult': case 'ule': case 'ugt': case 'uge':
      case 'slt': case 'sle': case 'sgt': case 'sge': {
        const width = a[0].sort;
        let x = this.bv(a[0], bound);
        let y = this.bv(a[1], bound);
        if (t.op[0] === 's') {
          x = toSigned(x, width);
          y = toSigned(y, width);
        }
        switch (t.op) {
          case 'ult': case 'slt': return x < y;
          case 'ule': case 'sle': return x <= y;
          case 'ugt': case 'sgt': return x > y;
          default: return x >= y;
        }
      }
      case 'add': case 'sub': case 'mul': case 'udiv': case 'urem': case 'sdiv': case 'srem':
      case 'smod': case 'bvand': case 'bvor': case 'bvxor': case 'shl': case 'lshr': case 'ashr':
        return evalBvBinary(t.op, this.bv(a[0], bound), this.bv(a[1], bound), w);
      case 'neg':
        return norm(-this.bv(a[0], bound), w);
      case 'bvnot':
        return norm(~this.bv(a[0], bound), w);
      case 'extract':
        return norm(this.bv(a[0], bound) >> BigInt(t.params![1]), w);
      case 'zext':
        return this.bv(a[0], bound);
      case 'sext':
        return norm(toSigned(this.bv(a[0], bound), a[0].sort), w);
      case 'concat': {
        let v = 0n;
        for (const x of a) v = (v << BigInt(x.sort)) | this.bv(x, bound);
        return v;
      }
    }
    const never: never = t.op;
    throw new Error(`unknown op ${never as string}`);
  }
}

/** Thrown when a term to evaluate contains a quantifier (over 64-bit values it has no concrete evaluation here). */
export class QuantifierEvalError extends Error {
  constructor() {
    super('cannot evaluate a quantifier concretely');
    this.name = 'QuantifierEvalError';
  }
}
