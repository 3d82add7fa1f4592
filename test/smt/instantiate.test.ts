/**
 * The one instantiation engine (src/core/smt/instantiate.ts) on a small
 * chain of facts, without the solver: which instances a query gets, by
 * generation, depth, cross-product triggers and limit, and that both
 * enumeration orders give the same instances.
 */
import { describe, expect, it } from 'vitest';
import { instantiate, skolemize } from '../../src/core/smt/instantiate.ts';
import * as o from '../../src/core/smt/ops.ts';
import type { Quantified } from '../../src/core/smt/quantified.ts';
import { BOOL, type Term, boolConst, variable } from '../../src/core/smt/term.ts';

const W = 8;
const next = o.declareFun('inst.next', [W], W);
const live = o.declareFun('inst.live', [W], BOOL);
const owns = o.declareFun('inst.owns', [W, W], BOOL);
const nextOf = (x: Term) => o.app(next, [x]);
const liveOf = (x: Term) => o.app(live, [x]);

/** forall x. live(x) => live(next(x)), fired at next(x) and live(x). */
function chain(depth?: number): Quantified {
  return {
    name: 'chain',
    gloss: 'the successor of a live node is live',
    vars: [W],
    triggers: [{ fn: 'inst.live', positions: [0] }],
    body: ([x]) => o.implies(liveOf(x), liveOf(nextOf(x))),
    ...(depth !== undefined ? { depth } : {}),
  };
}

const a = variable('inst.a', W);
const b = variable('inst.b', W);
const c = variable('inst.c', W);

describe('the instantiation engine', () => {
  it('fires a fact at the roots, then at the terms its instances bring, as deep as the fact allows', () => {
    // live(a) brings live(next(a)) (generation 1), which brings live(next(next(a))) (generation 2).
    const at = (depth?: number) => instantiate([chain(depth)], [liveOf(a)]);
    expect(at(0)).toEqual([chain().body([a])]);
    expect(at()).toEqual([chain().body([a]), chain().body([nextOf(a)])]);
    expect(at(2)).toHaveLength(3);
  });

  it('includes facts without variables first, and drops instances that are literally true', () => {
    const ground: Quantified = { name: 'g', gloss: '', vars: [], triggers: [], body: () => liveOf(b) };
    const trivial: Quantified = { name: 't', gloss: '', vars: [W], triggers: [{ fn: 'inst.live', positions: [0] }], body: () => boolConst(true) };
    const out = instantiate([chain(0), ground, trivial], [liveOf(a)]);
    // The ground fact's live(b) is a root too (found first: the walk takes the last root first).
    expect(out).toEqual([liveOf(b), chain().body([b]), chain().body([a])]);
    // Refinement leaves the ground facts' terms out of the roots: live(b) triggers nothing.
    expect(instantiate([chain(0), ground], [liveOf(a)], { groundRoots: false })).toEqual([liveOf(b), chain().body([a])]);
  });

  it('both orders give the same instances: by term walks the functions as found, by fact walks the facts', () => {
    const byNext: Quantified = { ...chain(0), name: 'byNext', triggers: [{ fn: 'inst.next', positions: [0] }] };
    const facts = [byNext, chain(0)];
    const roots = [o.eq(nextOf(b), a), liveOf(a)];
    // live(a) is found before next(b) (the walk takes the last root first).
    expect(instantiate(facts, roots)).toEqual([chain().body([a]), byNext.body([b])]);
    expect(instantiate(facts, roots, { order: 'fact' })).toEqual([byNext.body([b]), chain().body([a])]);
  });

  it('a cross-product trigger pairs every owner with every object among the query terms', () => {
    const pair: Quantified = {
      name: 'pair',
      gloss: '',
      vars: [W, W],
      triggers: [],
      depth: 0,
      pairs: { owner: [{ fn: 'inst.live', positions: [0] }], owned: [{ fn: 'inst.next', positions: [0] }] },
      body: ([p, x]) => o.implies(liveOf(p), o.app(owns, [p, x])),
    };
    const out = instantiate([pair], [liveOf(a), liveOf(b), o.eq(nextOf(c), a)]);
    expect(new Set(out)).toEqual(new Set([a, b].map((p) => pair.body([p, c]))));
  });

  it('stops at the limit', () => {
    const roots = Array.from({ length: 10 }, (_, i) => liveOf(variable(`inst.n${i}`, W)));
    expect(instantiate([chain(3)], roots)).toHaveLength(40);
    expect(instantiate([chain(3)], roots, { limit: 15 })).toHaveLength(15);
  });

  it('skolemises at fresh constants, shared by facts skolemised under one key', () => {
    const one = skolemize(chain(), 'goal');
    expect(one.vars.map((v) => v.name)).toEqual(['sk.goal.chain.0']);
    expect(one.goal).toBe(chain().body(one.vars));
    const other: Quantified = { ...chain(), name: 'other' };
    expect(skolemize(other, 'goal', 'node').vars).toEqual(skolemize(chain(), 'goal', 'node').vars);
  });
});
