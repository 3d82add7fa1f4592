import { describe, expect, it } from 'vitest';
import * as o from '../../src/core/smt/ops.ts';
import { eachSubterm } from '../../src/core/smt/subterms.ts';
import { type Term, variable } from '../../src/core/smt/term.ts';

const name = (t: Term) => (t.op === 'var' ? t.name : t.op);

describe('eachSubterm', () => {
  const [x, y, z] = ['x', 'y', 'z'].map((n) => variable(n, 8));
  const shared = o.bvand(x, y);
  const a = o.bvor(shared, z);
  const b = o.bvxor(shared, x);

  it('visits each distinct term once: depth first from the last root, a term before its arguments, the last argument first', () => {
    const seen: Term[] = [];
    expect(eachSubterm([a, b], (t) => void seen.push(t))).toBe(false);
    // Nodes are hash-consed and argument order is the constructor's; read it off the terms.
    const expected: Term[] = [];
    const done = new Set<number>();
    const visit = (t: Term) => {
      if (done.has(t.id)) return;
      done.add(t.id);
      expected.push(t);
      for (const u of [...t.args].reverse()) visit(u);
    };
    for (const r of [b, a]) visit(r);
    expect(seen.map(name)).toEqual(expected.map(name));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((t) => t === shared)).toHaveLength(1);
    expect(seen.filter((t) => t === x)).toHaveLength(1);
  });

  it('stops at the first visit that returns true', () => {
    const met: Term[] = [];
    expect(eachSubterm([a, b], (t) => (met.push(t), t === shared))).toBe(true);
    expect(met.at(-1)).toBe(shared);
    // y lies only below the shared term, and a is the other root: neither is reached.
    expect(met).not.toContain(y);
    expect(met).not.toContain(a);
  });

  it('skips what a shared seen set already holds, so two calls walk their roots as one', () => {
    const seenIds = new Set<number>();
    const first: Term[] = [];
    eachSubterm([a], (t) => void first.push(t), seenIds);
    const second: Term[] = [];
    eachSubterm([b], (t) => void second.push(t), seenIds);
    expect(second).toEqual([b]);
    expect(first).toContain(shared);
  });
});
