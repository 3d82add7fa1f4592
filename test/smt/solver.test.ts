import { describe, expect, it } from 'vitest';
import { nodeEngine, nodeZ3 } from '../../src/cli/z3-node.ts';
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

  it('gives the same answers without solve-eqs (the declarative checks ask so)', async () => {
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
});

describe('Z3 engine watchdog', () => {
  it('declares the engine dead when a check neither finishes nor stops when interrupted', async () => {
    // Fault injection: the real Z3 context, except that its solvers' check()
    // never settles, as when Z3's pthread has crashed. (It shares the
    // process's module: a second WASM instance is slow to start under load.
    // The wedged check keeps that module's finalizer gate closed, so this
    // test comes last in the file.)
    const z3 = await nodeZ3();
    const wedge = <T extends object>(solver: T): T =>
      new Proxy(solver, { get: (s, k) => (k === 'check' ? () => new Promise(() => {}) : Reflect.get(s, k)) });
    const wedged = {
      Z3: z3.Z3,
      Context: (name: string) => {
        const ctx = z3.Context(name);
        return new Proxy(ctx, {
          get: (c, k) =>
            k === 'AndThen'
              ? (...t: unknown[]) => {
                  const tactic = (c.AndThen as (...a: unknown[]) => { solver(): object })(...t);
                  return { solver: () => wedge(tactic.solver()) };
                }
              : Reflect.get(c, k),
        });
      },
    } as unknown as Parameters<typeof createEngine>[0];
    const engine = createEngine(wedged, 'wedged', { watchdogGraceMs: 200 });
    const x = variable('x', 8);
    const started = Date.now();
    await expect(engine.check([o.eq(x, bvConst(1, 8))], { timeoutMs: 100 })).rejects.toThrow(EngineDeadError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    // Later checks fail at once instead of hanging.
    await expect(engine.check([o.eq(x, bvConst(2, 8))], { timeoutMs: 100 })).rejects.toThrow(/stopped responding/);
  });
});
