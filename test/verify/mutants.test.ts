import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/cli/z3-node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { verify } from '../../src/core/verify/index.ts';
import { loadCases } from './cases.ts';

const cases = loadCases('test/cases/mutants', '.c');

describe('mutated implementations are refuted by the oracle', () => {
  it('has at least two mutants per handler', () => {
    const per = new Map<string, number>();
    for (const c of cases) per.set(c.handler, (per.get(c.handler) ?? 0) + 1);
    expect(per.size).toBe(50);
    for (const [h, n] of per) expect(n, h).toBeGreaterThanOrEqual(2);
  });
  for (const c of cases) {
    it(`${c.handler}/${c.name}`, async () => {
      const v = await verify({ handler: c.handler, spec: oracleSpec(c.handler)!, implSource: c.text }, { engine: await nodeEngine() });
      expect(v.status).toBe(c.expect);
      if (v.status === 'refuted') {
        for (const ob of c.obligations) expect(v.failed).toContain(ob);
        expect(v.counterexample?.replayed).toBe(true);
      }
    });
  }
});
