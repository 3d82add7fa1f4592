/**
 * Golden refutations, one harness over two case sets: wrong specs against
 * the kernel (test/cases/refute) and wrong kernel functions against the
 * oracle spec (test/cases/mutants). Each must be refuted, every obligation
 * its header names must be among the failed ones, and the counterexample
 * must replay.
 */
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/z3/node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { verify } from '../../src/core/verify/index.ts';
import { requireArtefact } from '../artefacts.ts';
import { type Case, expectations, loadCases } from '../cases/load.ts';

interface CaseSet {
  readonly title: string;
  readonly feature: string;
  /** Cases per handler at least, and how the count test says it. */
  readonly perHandler: number;
  readonly countTitle: string;
  readonly request: (c: Case) => { handler: string; spec: string; implSource?: string };
}

const SETS: CaseSet[] = [
  {
    title: 'wrong specs are refuted with the expected obligation',
    feature: 'refute',
    perHandler: 3,
    countTitle: 'has at least three wrong specs per handler',
    request: (c) => ({ handler: c.handler!, spec: c.text }),
  },
  {
    title: 'mutated implementations are refuted by the oracle',
    feature: 'mutants',
    perHandler: 2,
    countTitle: 'has at least two mutants per handler',
    request: (c) => ({ handler: c.handler!, spec: requireArtefact(oracleSpec(c.handler!), `the oracle spec of ${c.handler}`), implSource: c.text }),
  },
];

for (const set of SETS) {
  const cases = loadCases(set.feature);
  describe(set.title, () => {
    it(set.countTitle, () => {
      const per = new Map<string, number>();
      for (const c of cases) per.set(c.handler!, (per.get(c.handler!) ?? 0) + 1);
      expect(per.size).toBe(50);
      for (const [h, n] of per) expect(n, h).toBeGreaterThanOrEqual(set.perHandler);
    });
    for (const c of cases) {
      it(`${c.group}/${c.name}`, async () => {
        const want = c.header.expectations[0];
        const v = await verify(set.request(c), await nodeEnv());
        expect(v.status, v.status === 'spec-error' ? v.error.message : '').toBe(want.kind);
        if (v.status === 'refuted') {
          for (const ob of expectations(c, 'refuted')[0].obligations) expect(v.failed).toContain(ob);
          expect(v.counterexample?.replayed).toBe(true);
        }
      });
    }
  });
}
