import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/cli/z3-node.ts';
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
});
