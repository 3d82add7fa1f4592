/**
 * The checked query (src/core/verify/query.ts) on the real Z3: each tag of
 * its result, the lent model, and the budget. And the lemma checks on
 * a spec with a quantifier, which go through it: a failure there is the
 * solver's word for that lemma (with SPEC031), not an error that fails the
 * whole set.
 */
import { describe, expect, it } from 'vitest';
import { nodeEngine, nodeEnv } from '../../src/z3/node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import * as o from '../../src/core/smt/ops.ts';
import { boundVar, bvConst, variable } from '../../src/core/smt/term.ts';
import { verifyDeclarative } from '../../src/core/verify/driver.ts';
import { QUANTIFIED_LEMMA } from '../../src/core/verify/fact-prover.ts';
import { BUDGET_SPENT, solveFromSubset, solveQuery, refutes } from '../../src/core/verify/query.ts';

const x = variable('q.x', 64);
const none = () => [];

describe('the checked query', () => {
  it('proves a valid goal', async () => {
    const r = await solveQuery(await nodeEngine(), { goals: [o.eq(o.mul(x, bvConst(2, 64)), o.shl(x, bvConst(1, 64)))], assume: none });
    expect(r.kind).toBe('proved');
  });

  it('refutes with a replayed model, lent to the caller while it is read', async () => {
    const assumed = o.ult(x, bvConst(10, 64));
    const r = await solveQuery(await nodeEngine(), { goals: [o.eq(x, bvConst(3, 64)), o.TRUE], assume: () => [assumed] }, (lease) => ({
      x: lease.value(x),
      replayed: lease.replayed,
    }));
    expect(r.kind).toBe('refuted');
    if (r.kind !== 'refuted') return;
    expect(r.value.replayed).toBe(true);
    expect(typeof r.value.x === 'bigint' && r.value.x < 10n && r.value.x !== 3n).toBe(true);
  });

  it('hands the model over when the caller keeps it', async () => {
    const r = await solveQuery(await nodeEngine(), { goals: [o.eq(x, bvConst(4, 64))], assume: () => [o.eq(x, bvConst(5, 64))] }, (lease) => lease.keep());
    expect(r.kind).toBe('refuted');
    if (r.kind !== 'refuted') return;
    // Still readable after the query returned: the caller owns it now.
    expect(r.value.constant('q.x', 64)).toBe(5n);
    r.value.dispose();
  });

  it('keeps a refuting model as a snapshot that refutes a like query without the solver, and no other', async () => {
    const f = o.declareFun('q.f', [64], 64);
    const fx = o.app(f, [x]);
    // Some x below 10 whose f(x) is not 7.
    const r = await solveQuery(await nodeEngine(), { goals: [o.eq(fx, bvConst(7, 64))], assume: () => [o.ult(x, bvConst(10, 64))] }, (lease) => lease.snapshot());
    expect(r.kind).toBe('refuted');
    if (r.kind !== 'refuted') return;
    const snap = r.value;
    // Plain values, readable with the model gone: what was read, and 0 for what was not.
    const vx = snap.constant('q.x', 64) as bigint;
    expect(vx < 10n).toBe(true);
    expect(snap.apply(f, [vx])).not.toBe(7n);
    expect(snap.constant('q.never-read', 64)).toBe(0n);
    expect(snap.size).toBe(2);
    // The same query, and one with more (true) assumptions: refuted by the snapshot.
    expect(refutes({ goals: [o.eq(fx, bvConst(7, 64))], assume: () => [o.ult(x, bvConst(10, 64))] }, snap)).toBe(true);
    expect(refutes({ goals: [o.eq(fx, bvConst(7, 64))], assume: () => [o.ult(x, bvConst(10, 64)), o.eq(x, bvConst(vx, 64))] }, snap)).toBe(true);
    // An assumption the snapshot breaks, a goal it satisfies, a valid goal: not refuted.
    expect(refutes({ goals: [o.eq(fx, bvConst(7, 64))], assume: () => [o.ugt(x, bvConst(vx, 64))] }, snap)).toBe(false);
    expect(refutes({ goals: [o.ult(x, bvConst(10, 64))], assume: none }, snap)).toBe(false);
    expect(refutes({ goals: [o.eq(o.mul(x, bvConst(2, 64)), o.shl(x, bvConst(1, 64)))], assume: none }, snap)).toBe(false);
    // A quantifier stops the evaluation: never a refutation.
    const q = boundVar('q.q', 64);
    expect(refutes({ goals: [o.forall([q], o.eq(q, x))], assume: none }, snap)).toBe(false);
  });

  it('asks a query with some of its assertions first, and settles only what the whole query would say', async () => {
    const engine = await nodeEngine();
    const y = variable('q.y', 64);
    const small = o.ult(x, bvConst(10, 64));
    const nonzero = o.not(o.eq(x, bvConst(0, 64)));
    const below = o.ult(y, x);
    // Proved from the subset alone: the other assertion is never asked.
    const q1 = { goals: [o.ult(x, bvConst(11, 64))], assume: () => [small, below] };
    const p = await solveFromSubset(engine, q1, [small], 1);
    expect(p.checked?.kind).toBe('proved');
    expect(p.asked.map((a) => a.status)).toEqual(['unsat']);
    // A model of the subset refutes only if every assertion holds under it: the
    // assertions it breaks are added, so in at most three rounds here the
    // model is one of the whole query (x is one of 1..9 but 5).
    const goal = o.eq(x, bvConst(5, 64));
    const q2 = { goals: [goal], assume: () => [small, nonzero] };
    const r2 = await solveFromSubset(engine, q2, [], 3, (lease) => lease.value(x));
    expect(r2.checked?.kind).toBe('refuted');
    if (r2.checked?.kind === 'refuted') expect([1n, 2n, 3n, 4n, 6n, 7n, 8n, 9n]).toContain(r2.checked.value);
    expect(r2.asked.every((a) => a.status === 'sat')).toBe(true);
    // A query that is valid only with every assertion: the rounds add what each model breaks until it is proved.
    const q3 = { goals: [o.ult(y, bvConst(9, 64))], assume: () => [small, below] };
    const r3 = await solveFromSubset(engine, q3, [], 3);
    expect(r3.checked?.kind).toBe('proved');
    expect(r3.asked.at(-1)?.status).toBe('unsat');
    // Out of rounds before that: every model of the empty subset breaks an
    // assertion, so nothing is settled, and the caller asks the query itself.
    const cut = await solveFromSubset(engine, q3, [], 1);
    expect(cut.checked).toBeUndefined();
    expect(cut.asked.map((a) => a.status)).toEqual(['sat']);
    // A quantified assertion our evaluator cannot read: never a refutation.
    const q = boundVar('q.q', 64);
    const q4 = { goals: [goal], assume: () => [o.forall([q], o.ule(q, o.bvnot(bvConst(0, 64))))] };
    expect((await solveFromSubset(engine, q4, [], 2)).checked).toBeUndefined();
  });

  it("takes a refutation through a quantifier on the solver's word", async () => {
    const q = boundVar('q.q', 64);
    const goal = o.forall([q], o.eq(q, x));
    const r = await solveQuery(await nodeEngine(), { goals: [goal], assume: none }, (lease) => ({ goal: lease.value(goal), replayed: lease.replayed }));
    expect(r.kind).toBe('on-word');
    if (r.kind === 'on-word') expect(r.value).toEqual({ goal: 'quantified', replayed: false });
  });

  it('asks nothing once the deadline has passed, and says a limit ran out', async () => {
    const engine = await nodeEngine();
    const spent = await solveQuery(engine, { goals: [o.eq(x, bvConst(1, 64))], assume: none, deadline: Date.now() - 1 });
    expect(spent).toEqual({ kind: 'undecided', ms: 0, outcome: 'timeout', reason: BUDGET_SPENT });
    // Factoring a product of two 31-bit primes: far more than a millisecond.
    const y = variable('q.y', 64);
    const n = 2147483629n * 2147483587n;
    const hard = o.and(o.eq(o.mul(x, y), bvConst(n, 64)), o.ugt(x, bvConst(1, 64)), o.ugt(y, bvConst(1, 64)), o.ult(x, bvConst(1n << 32n, 64)), o.ult(y, bvConst(1n << 32n, 64)));
    const r = await solveQuery(engine, { goals: [o.not(hard)], assume: none, timeoutMs: 1 });
    expect(r).toMatchObject({ kind: 'undecided', outcome: 'timeout' });
  });
});

describe('the lemma checks through a quantifier', () => {
  it("fail the broken lemma on the solver's word, with SPEC031, and keep the others", async () => {
    // The port's slot goes to the next port (the golden case owned_next_port),
    // and the condition gains a valid quantified conjunct: every fact the
    // step touches now has a quantifier our evaluator cannot replay.
    const spec = oracleSpec('sys_alloc_port')!
      .replace('new.procs[cur].nr_ports[port] += 1', 'new.procs[cur].nr_ports[port + z3.BitVecVal(1, dt.uint16_t)] += 1')
      .replace('old.procs[cur].use_io_bitmap,', "old.procs[cur].use_io_bitmap,\n        z3.ForAll([z3.BitVec('q', 64)], z3.Implies(z3.ULT(z3.BitVec('q', 64), cur), z3.ULE(z3.BitVec('q', 64), cur))),");
    const d = await verifyDeclarative({ handler: 'sys_alloc_port', spec }, await nodeEnv(), 120_000);
    expect(d.status).toBe('failed');
    if (d.status === 'spec-error') return;
    expect(d.warnings.map((w) => w.code)).toEqual(['SPEC031']);
    const lemma = d.results.find((r) => r.name === 'nr_ports_refcnt');
    expect(lemma?.status).toBe('failed');
    expect(lemma?.reason).toContain(QUANTIFIED_LEMMA);
    // One result per lemma and invariant, as for any spec: not one 'lemmas' entry for the whole set.
    expect(d.results.length).toBeGreaterThan(10);
  }, 300_000);
});
