import { describe, expect, it } from 'vitest';
import * as o from '../../src/core/smt/ops.ts';
import { evaluate, zeroInterpretation } from '../../src/core/smt/eval.ts';
import { bvConst, variable } from '../../src/core/smt/term.ts';
import { toSmtLib } from '../../src/core/smt/smtlib.ts';

const c = (v: bigint | number, w = 8) => bvConst(v, w);

describe('smart constructors', () => {
  it('hash-conses identical terms', () => {
    const x = variable('x', 64);
    expect(o.add(x, c(1, 64))).toBe(o.add(x, c(1, 64)));
    expect(o.add(x, c(1, 64))).toBe(o.add(c(1, 64), x));
  });

  it('folds constants with SMT-LIB semantics', () => {
    expect(o.udiv(c(7), c(0)).value).toBe(0xffn);
    expect(o.urem(c(7), c(0)).value).toBe(7n);
    expect(o.sdiv(c(-7), c(2)).value).toBe(0xfdn); // -3
    expect(o.srem(c(-7), c(2)).value).toBe(0xffn); // -1
    expect(o.smod(c(-7), c(2)).value).toBe(1n);
    expect(o.smod(c(7), c(-2)).value).toBe(0xffn); // -1
    expect(o.ashr(c(0x80), c(7)).value).toBe(0xffn);
    expect(o.lshr(c(0x80), c(7)).value).toBe(1n);
    expect(o.shl(c(1), c(8)).value).toBe(0n);
    expect(o.slt(c(0xff), c(0)).value).toBe(true);
    expect(o.ult(c(0xff), c(0)).value).toBe(false);
    expect(o.sext(8, c(0x80)).value).toBe(0xff80n);
    expect(o.extract(7, 4, c(0xab)).value).toBe(0xan);
  });

  it('decides If on literal conditions and equal branches', () => {
    const x = variable('x', 8);
    const p = variable('p', 0);
    expect(o.ite(o.TRUE, x, c(0))).toBe(x);
    expect(o.ite(p, x, x)).toBe(x);
    expect(o.eq(o.ite(p, c(1), c(2)), c(1))).toBe(p);
  });

  it('folds And and Or as duals: flattened, without repeats, absorbing constant, complements', () => {
    const [p, q, r] = ['p', 'q', 'r'].map((n) => variable(n, 0));
    expect(o.and()).toBe(o.TRUE);
    expect(o.or()).toBe(o.FALSE);
    expect(o.and(o.TRUE, p, o.TRUE)).toBe(p);
    expect(o.or(o.FALSE, p, o.FALSE)).toBe(p);
    expect(o.and(p, o.FALSE, q)).toBe(o.FALSE);
    expect(o.or(p, o.TRUE, q)).toBe(o.TRUE);
    expect(o.and(p, q, o.not(p))).toBe(o.FALSE);
    expect(o.or(p, q, o.not(p))).toBe(o.TRUE);
    const and = o.and(p, o.and(q, p), r);
    expect([and.op, and.args]).toEqual(['and', [p, q, r]]);
    const or = o.or(p, o.or(q, p), r);
    expect([or.op, or.args]).toEqual(['or', [p, q, r]]);
    // A nested junction of the other kind stays one argument.
    expect(o.and(p, o.or(q, r)).args).toEqual([p, o.or(q, r)]);
    expect(() => o.and(p, variable('x', 8))).toThrow(/And/);
    expect(() => o.or(p, variable('x', 8))).toThrow(/Or/);
  });

  it('rejects width mismatches', () => {
    expect(() => o.add(variable('a', 8), variable('b', 16))).toThrow(o.SortError);
  });
});

describe('evaluation agrees with folding', () => {
  it('evaluates random binary ops like the folder', () => {
    const ops = ['add', 'sub', 'mul', 'udiv', 'urem', 'sdiv', 'srem', 'smod', 'bvand', 'bvor', 'bvxor', 'shl', 'lshr', 'ashr'] as const;
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const x = variable('x', 8);
    const y = variable('y', 8);
    for (let i = 0; i < 500; i++) {
      const a = BigInt(rnd() % 256);
      const b = BigInt(rnd() % 256);
      const op = ops[rnd() % ops.length];
      const folded = o[op](c(a), c(b)).value;
      const interp = { ...zeroInterpretation, constant: (n: string) => (n === 'x' ? a : b) };
      expect(evaluate(o[op](x, y), interp)).toBe(folded);
    }
  });
});

describe('SMT-LIB printing', () => {
  it('shares repeated sub-terms through define-fun', () => {
    const x = variable('x', 64);
    const s = o.mul(o.add(x, c(1, 64)), o.add(x, c(1, 64)));
    const script = toSmtLib([o.eq(s, c(4, 64))]);
    expect(script.text).toContain('(declare-const |x| (_ BitVec 64))');
    expect(script.text).toContain('(assert (=');
  });
});
