/**
 * Runs grouped by meaning (src/core/eval/stats/determinism.ts), with the
 * real comparison (verify/equivalence.ts, real Z3): classes, what is reused
 * without a query, the tie rule and the run-level figures.
 */
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../../src/z3/node.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import { type CompareSpecs, type MeaningSample, determinismOf, groupTask } from '../../../src/core/eval/stats/determinism.ts';
import { diffSpecs } from '../../../src/core/verify/equivalence.ts';
import { loadCases } from '../../cases/load.ts';

const oracle = oracleSpec('sys_dup')!;
const pair = (name: string) => loadCases('diff').find((c) => c.name === name)!.text;

/** sys_dup's comparison, counting the calls. */
function counted(): { compare: CompareSpecs; calls: () => number } {
  let calls = 0;
  return {
    compare: async (a, b) => {
      calls++;
      return diffSpecs({ handler: 'sys_dup', a, b, ghost: false }, await nodeEnv());
    },
    calls: () => calls,
  };
}

const fail = (sample: number, spec: string): MeaningSample => ({ sample, spec, passes: false, runs: true });

describe('groupTask', () => {
  it('puts equivalent samples together, passing ones with no query, and says where each class differs from the largest', async () => {
    const { compare, calls } = counted();
    const samples: MeaningSample[] = [
      { sample: 0, spec: oracle, passes: true, runs: true },
      { sample: 1, spec: pair('rewrite.py'), passes: true, runs: true },
      fail(2, pair('wrong-fd.py')),
      fail(3, `${pair('wrong-fd.py')}\n# the same mistake, another text\n`),
      fail(4, pair('cond-only.py')),
      { sample: 5, spec: 'def sys_dup(old', passes: false, runs: false },
    ];
    const t = await groupTask('sys_dup-v0', samples, compare);
    expect(t.classes.map((c) => c.samples)).toEqual([[0, 1], [2, 3], [4], [5]]);
    expect(t.classes.map((c) => c.passes)).toEqual([true, false, false, false]);
    // Sample 3 against class [2] (the same terms: no query), sample 4 against class [2]; then the two failing classes against the passing one.
    expect(calls()).toBe(4);
    expect(t.queries).toBe(3);
    expect(t.classes[0].against_largest).toBeUndefined();
    expect(t.classes[1].against_largest?.fields).toContain('procs.ofile');
    expect(t.classes[2].against_largest?.fields).toEqual(['cond']);
    expect(t.classes[2].against_largest).toMatchObject({ condA: true, condB: false, replayed: true });
    expect(t.classes[3].runs).toBe(false);
    expect(t.classes[3].against_largest).toBeUndefined();
  });

  it('breaks a tie by the earliest first sample, never by passing', async () => {
    const { compare } = counted();
    const t = await groupTask('sys_dup-v1', [fail(0, pair('cond-only.py')), { sample: 1, spec: oracle, passes: true, runs: true }], compare);
    expect(t.classes.map((c) => c.samples)).toEqual([[0], [1]]);
    expect(determinismOf([t])).toMatchObject({ mean_largest_share: 0.5, consensus_pass_at_1: 0 });
  });

  it('a comparison that is undecided leaves the sample in a class of its own', async () => {
    const undecided: CompareSpecs = async () => ({ status: 'timeout', reason: 'budget', ms: 5, queries: 1 });
    const t = await groupTask('sys_dup-v2', [fail(0, pair('wrong-fd.py')), fail(1, pair('cond-only.py'))], undecided);
    expect(t.classes.map((c) => [c.samples, c.undecided ?? false])).toEqual([
      [[0], false],
      [[1], true],
    ]);
  });
});

describe('determinismOf', () => {
  it('means the largest share and the largest class passing over tasks', () => {
    const cls = (samples: number[], passes: boolean) => ({ samples, passes, runs: true });
    const d = determinismOf([
      { task: 'a', classes: [cls([0, 1, 2], true), cls([3], false)], queries: 1, queryMs: [10] },
      { task: 'b', classes: [cls([0, 1], false), cls([2, 3], true)], queries: 2, queryMs: [20, 40] },
    ]);
    expect(d).toMatchObject({ mean_largest_share: (0.75 + 0.5) / 2, consensus_pass_at_1: 0.5, queries: 3, median_query_ms: 20 });
  });
});
