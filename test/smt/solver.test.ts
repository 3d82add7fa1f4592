import { describe, expect, it } from 'vitest';
import { nodeEngine, nodeZ3 } from '../../src/z3/node.ts';
import { EngineDeadError, createEngine } from '../../src/core/smt/solver.ts';
import * as o from '../../src/core/smt/ops.ts';
import { evaluate } from '../../src/core/smt/eval.ts';
import { bvConst, variable } from '../../src/core/smt/term.ts';
import { declareFun } from '../../src/core/smt/ops.ts';

describe('Z3 engine', () => {
  it('proves a valid bit-vector fact (negation unsat)', async () => {
    const z3 = await nodeEngine();
    const x = variable('x', 64);
    const r = await z3.check([o.not(o.eq(o.bvand(x, bvConst(0, 64)), bvConst(0, 64)))]);
    expect(r.status).toBe('unsat');
  });

  it('returns a model our evaluator confirms, with functions', async () => {
    const z3 = await nodeEngine();
    const x = variable('x', 64);
    const f = declareFun('f', [64], 64);
    const goal = o.and(o.eq(o.app(f, [x]), o.add(x, bvConst(7, 64))), o.ugt(x, bvConst(100, 64)), o.ult(x, bvConst(200, 64)));
    const r = await z3.check([goal]);
    expect(r.status).toBe('sat');
    if (r.status !== 'sat') return;
    expect(evaluate(goal, r.model)).toBe(true);
    const xv = r.model.constant('x', 64) as bigint;
    expect(xv > 100n && xv < 200n).toBe(true);
  });

  it('gives the same answers without solve-eqs (the lemma checks ask so)', async () => {
    const z3 = await nodeEngine();
    const x = variable('x', 64);
    const y = variable('y', 64);
    const f = declareFun('f', [64], 64);
    // An equation solve-eqs would eliminate, with a function over the solved variable.
    const valid = o.not(o.implies(o.eq(y, o.add(x, bvConst(1, 64))), o.eq(o.app(f, [y]), o.app(f, [o.add(x, bvConst(1, 64))]))));
    const open = o.and(o.eq(y, o.add(x, bvConst(1, 64))), o.not(o.eq(o.app(f, [y]), o.app(f, [x]))));
    for (const solveEqs of [true, false]) {
      expect((await z3.check([valid], { solveEqs })).status).toBe('unsat');
      const r = await z3.check([open], { solveEqs });
      expect(r.status).toBe('sat');
      if (r.status !== 'sat') return;
      // The model covers the eliminated variable too.
      expect(evaluate(open, r.model)).toBe(true);
      r.model.dispose();
    }
  });

  it('answers a query the same way whatever ran before it (a context per query)', async () => {
    const z3 = await nodeEngine();
    const f = declareFun('f', [64], 64);
    const vs = ['a', 'b', 'c', 'd'].map((n) => variable(n, 64));
    const k = (n: number) => bvConst(n, 64);
    // Many models: Z3's pick among them follows the order in which its
    // context first saw the terms. In one context shared by every query,
    // the queries below made it pick 5 different models of this one.
    const query = [
      o.or(o.eq(o.app(f, [vs[0]]), k(1)), o.eq(o.app(f, [vs[1]]), k(2)), o.eq(o.app(f, [vs[2]]), k(3))),
      o.or(o.eq(vs[0], vs[1]), o.eq(vs[1], vs[2]), o.eq(vs[2], vs[3])),
      o.not(o.eq(o.app(f, [vs[3]]), o.app(f, [vs[0]]))),
      o.ugt(o.add(vs[0], vs[3]), k(10)),
    ];
    const pick = async () => {
      const r = await z3.check(query);
      if (r.status !== 'sat') throw new Error(r.status);
      const v = vs.map((x) => r.model.constant(x.name!, 64)).join(',');
      r.model.dispose();
      return v;
    };
    const picks = new Set([await pick()]);
    for (let round = 0; round < 6; round++) {
      const other = [o.eq(o.app(f, [vs[3 - (round % 4)]]), k(round)), o.eq(vs[(round + 1) % 4], vs[(round + 2) % 4]), o.eq(o.app(f, [vs[2]]), k(3)), o.eq(vs[2], vs[3])];
      const r = await z3.check(other.slice(round % 3));
      if (r.status === 'sat') r.model.dispose();
      picks.add(await pick());
    }
    expect([...picks]).toHaveLength(1);
  });

  it('keeps hundreds of models readable while later queries run', async () => {
    const z3 = await nodeEngine();
    const f = declareFun('g', [64], 64);
    const x = variable('x', 64);
    const kept = [];
    for (let i = 0; i < 300; i++) {
      const r = await z3.check([o.eq(o.app(f, [x]), bvConst(i, 64)), o.ugt(x, bvConst(i, 64))]);
      if (r.status !== 'sat') throw new Error(r.status);
      kept.push(r.model);
    }
    for (const [i, m] of kept.entries()) {
      const xv = m.constant('x', 64) as bigint;
      expect(xv > BigInt(i)).toBe(true);
      expect(m.apply(f, [xv])).toBe(BigInt(i));
      m.dispose();
    }
  });
});

describe('Z3 engine watchdog', () => {
  it('declares the engine dead when a check neither finishes nor stops when interrupted', async () => {
    // Fault injection: the real Z3 module, except that a solver's check
    // never settles, as when Z3's pthread has crashed. (A copy of the
    // module's functions, so the wedged check holds only the copy's
    // finalizer gate, and the process's module goes on freeing.)
    const z3 = await nodeZ3();
    const wedged = { Z3: Object.assign(Object.create(null) as object, z3.Z3, { solver_check: () => new Promise(() => {}) }) } as unknown as Parameters<typeof createEngine>[0];
    const engine = createEngine(wedged, { watchdogGraceMs: 200 });
    const x = variable('x', 8);
    const started = Date.now();
    await expect(engine.check([o.eq(x, bvConst(1, 8))], { timeoutMs: 100 })).rejects.toThrow(EngineDeadError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    // Later checks fail at once instead of hanging.
    await expect(engine.check([o.eq(x, bvConst(2, 8))], { timeoutMs: 100 })).rejects.toThrow(/stopped responding/);
  });
});
