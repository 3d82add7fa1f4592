/**
 * The combined query's budget (src/core/verify/prove.ts) is Z3's resource
 * count, not time: a query stops at the same step on any machine and load.
 * The engine passes `rlimit` to Z3 (a query past it is unknown, as past a
 * timeout); a proof whose combined query runs out of it proves each
 * obligation on its own, to the same results, and one within it asks once.
 */
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import * as o from '../../src/core/smt/ops.ts';
import { declareFun } from '../../src/core/smt/ops.ts';
import { bvConst, variable } from '../../src/core/smt/term.ts';
import { type Obligation, prove } from '../../src/core/verify/prove.ts';

const x = variable('budget.x', 64);
const y = variable('budget.y', 64);
const f = declareFun('budget.f', [64], 64);
const k = (n: number) => bvConst(n, 64);
// Two valid obligations that need the SMT core (congruence over a function, bit-vector arithmetic).
const obligations: Obligation[] = [
  { name: 'congruence', goal: o.implies(o.eq(o.add(x, k(1)), o.add(y, k(1))), o.eq(o.app(f, [x]), o.app(f, [y]))) },
  { name: 'shift', goal: o.implies(o.ult(x, k(1000)), o.eq(o.shl(x, k(1)), o.add(x, x))) },
];

describe("the combined query's budget in Z3's resource units", () => {
  it('stops a query at its rlimit (unknown), and not one without it', async () => {
    const engine = await nodeEngine();
    const hard = [o.not(obligations[0].goal)];
    const limited = await engine.check(hard, { rlimit: 1 });
    expect(limited.status).toBe('unknown');
    expect(await engine.check(hard)).toMatchObject({ status: 'unsat' });
  });

  it('proves obligation by obligation when the combined query runs out of it, to the same results', async () => {
    const engine = await nodeEngine();
    const within = await prove(obligations, engine, { assume: () => [] });
    expect(within.results.map((r) => [r.name, r.status])).toEqual([['congruence', 'proved'], ['shift', 'proved']]);
    expect(within.queries).toBe(1);
    const past = await prove(obligations, engine, { assume: () => [], combinedRlimit: 1 });
    expect(past.results.map((r) => [r.name, r.status])).toEqual([['congruence', 'proved'], ['shift', 'proved']]);
    // The combined query gave up (and is counted), then one query per obligation.
    expect(past.queries).toBe(3);
  });
});
