/**
 * Concrete interpretations for checking symbolic results: every free
 * constant and uninterpreted-function application gets a pseudo-random
 * value from a small pool (so that indices collide often), reproducibly
 * from a seed. Tests compare terms built by the interpreter with reference
 * semantics written directly over these concrete values.
 */
import type { AbstractState } from '../../src/core/kernel/state.ts';
import { isRefcnt } from '../../src/core/kernel/state.ts';
import { type Interpretation, type Value, evaluate } from '../../src/core/smt/eval.ts';
import type { MapFn } from '../../src/core/smt/fn.ts';
import { BOOL, type FuncDecl, type Term, bvConst, mask } from '../../src/core/smt/term.ts';

export class RandomModel implements Interpretation {
  private state: number;
  private readonly memo = new Map<string, Value>();

  constructor(seed: number) {
    this.state = seed * 2654435761 + 1;
  }

  private next(): number {
    // xorshift32
    let x = this.state | 0;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x;
    return (x >>> 0) / 4294967296;
  }

  /** A value of `sort`: mostly 0..5, sometimes all-ones or a large random value. */
  pick(sort: number): Value {
    if (sort === BOOL) return this.next() < 0.5;
    const r = this.next();
    if (r < 0.8) return BigInt(Math.floor(this.next() * 6)) & mask(sort);
    if (r < 0.9) return mask(sort);
    return BigInt(Math.floor(this.next() * 2 ** 30)) & mask(sort);
  }

  /** Fixes the value of a constant. */
  fix(name: string, v: Value): this {
    this.memo.set(`c:${name}`, v);
    return this;
  }

  /** Fixes the value of function `name` at concrete arguments (before anything reads it). */
  fixApp(name: string, args: readonly Value[], v: Value): this {
    this.memo.set(`f:${name}(${args.join(',')})`, v);
    return this;
  }

  constant(name: string, sort: number): Value {
    const k = `c:${name}`;
    if (!this.memo.has(k)) this.memo.set(k, this.pick(sort));
    return this.memo.get(k)!;
  }

  apply(decl: FuncDecl, args: Value[]): Value {
    const k = `f:${decl.name}(${args.join(',')})`;
    if (!this.memo.has(k)) this.memo.set(k, this.pick(decl.range));
    return this.memo.get(k)!;
  }
}

export function val(t: Term, m: Interpretation): Value {
  return evaluate(t, m);
}

/** The value of map `f` at concrete indices under `m`. */
export function at(f: MapFn, m: Interpretation, ...idx: bigint[]): Value {
  return evaluate(f.apply(idx.map((v, i) => bvConst(v, f.domain[i]))), m);
}

/** The plain map of a state field (the count for a Refcnt). */
export function field(s: AbstractState, path: string): MapFn {
  const v = s.get(path);
  if (!v) throw new Error(`no field ${path}`);
  return isRefcnt(v) ? v.ref : v;
}
