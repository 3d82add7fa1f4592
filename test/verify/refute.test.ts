import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/cli/z3-node.ts';
import { verify } from '../../src/core/verify/index.ts';
import { loadCases } from './cases.ts';

const cases = loadCases('test/cases/refute', '.py');

describe('wrong specs are refuted with the expected obligation', () => {
  it('has at least three wrong specs per handler', () => {
    const per = new Map<string, number>();
    for (const c of cases) per.set(c.handler, (per.get(c.handler) ?? 0) + 1);
    expect(per.size).toBe(50);
    for (const [h, n] of per) expect(n, h).toBeGreaterThanOrEqual(3);
  });
  for (const c of cases) {
    it(`${c.handler}/${c.name}`, async () => {
      const v = await verify({ handler: c.handler, spec: c.text }, { engine: await nodeEngine() });
      expect(v.status, v.status === 'spec-error' ? v.error.message : '').toBe(c.expect);
      if (v.status === 'refuted') {
        for (const ob of c.obligations) expect(v.failed).toContain(ob);
        expect(v.counterexample?.replayed).toBe(true);
      }
    });
  }
});
