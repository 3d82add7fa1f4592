/**
 * The repair curve on hand-built chains: pass@1 after each round, open
 * chains left out, the per-task mean over samples, fixes and spending per
 * round, the flat tail up to the run's last round, and the interval.
 * Expected numbers are worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import type { GradeCategory } from '../../../src/core/eval/grade/grade-types.ts';
import type { AttemptRecord } from '../../../src/core/eval/run/run-types.ts';
import { computeMetrics } from '../../../src/core/eval/stats/metrics.ts';
import type { TaskFacts } from '../../../src/core/eval/stats/outcome.ts';
import { CURVE_NOTE, curveTable } from '../../../src/core/eval/stats/table.ts';
import { repairCurve } from '../../../src/core/eval/stats/repair-curve.ts';
import { makeAttempt } from '../../store/fixtures.ts';

const facts = (id: string): TaskFacts => ({ id, handler: id.replace(/-v\d+$/, ''), bug_classes: [], bug_count: 0 });

function attempt(taskId: string, sample: number, round: number, g: GradeCategory | 'error', tokens = 100, cost: number | null = 0.01): AttemptRecord {
  return makeAttempt('r', taskId, sample, round, g === 'error'
    ? { response: undefined, grade: undefined, error: { kind: 'server', code: 'LLM005', message: 'outage' }, cost: null }
    : { response: { text: 'x', model: 'm', usage: { input: tokens, output: tokens / 10 }, finishReason: 'stop', latencyMs: 1 }, grade: { category: g, extracted: null, diagnosis: '', ms: 1 }, cost });
}

/** A chain: outcomes by round, from round 0. */
const chain = (taskId: string, sample: number, ...outcomes: (GradeCategory | 'error')[]) => outcomes.map((o, r) => attempt(taskId, sample, r, o, 100 * (r + 1)));

// a: passes at once. b: fixed in round 2. c: never. d: round 1 never answered (open from round 1).
const TASKS = ['a-v0', 'b-v0', 'c-v0', 'd-v0'].map(facts);
const ATTEMPTS = [
  ...chain('a-v0', 0, 'pass'),
  ...chain('b-v0', 0, 'semantic', 'syntax', 'pass'),
  ...chain('c-v0', 0, 'semantic', 'semantic', 'semantic', 'timeout'),
  ...chain('d-v0', 0, 'semantic', 'error'),
];

describe('repair curve', () => {
  const curve = repairCurve(TASKS, ATTEMPTS, { rounds: 3, resamples: 500, seed: 's' });

  it('gives pass@1 after each round over the chains whose fate is known', () => {
    expect(curve.rounds).toBe(3);
    expect(curve.points.map((p) => p.round)).toEqual([0, 1, 2, 3]);
    // Round 0: a passes, b c d fail: 1/4. From round 1 d is open: a of {a b c} = 1/3, then a b of {a b c} = 2/3.
    expect(curve.points.map((p) => p.pass1)).toEqual([1 / 4, 1 / 3, 2 / 3, 2 / 3]);
    expect(curve.points.map((p) => [p.tasks, p.chains, p.open])).toEqual([[4, 4, 0], [3, 3, 1], [3, 3, 1], [3, 3, 1]]);
    expect(curve.points.map((p) => p.fixed)).toEqual([1, 0, 1, 0]);
    expect(curve.points.map((p) => p.fixedTasks)).toEqual([['a-v0'], [], ['b-v0'], []]);
    expect(curve.points.map((p) => p.passed)).toEqual([1, 1, 2, 2]);
  });

  it("names the table's counts for what they count: passed by then, new passes, still failing, no answer yet", () => {
    const t = curveTable(curve);
    expect(t.header.slice(3, 7)).toEqual(['passed by then', 'new passes', 'still failing', 'no answer yet']);
    expect(t.rows.map((r) => r.slice(3, 7))).toEqual([['1', '1', '3', '0'], ['1', '0', '2', '1'], ['2', '1', '1', '1'], ['2', '0', '1', '1']]);
    expect(CURVE_NOTE).toContain('round 0: first answers that passed');
  });

  it('counts each round\'s tokens and cost per chain it fixed', () => {
    // Round r's answers have 100(r+1) input and 10(r+1) output tokens, 0.01 USD each (the unanswered one has none).
    // Round 0: 4 answers = 400 + 40 tokens, 1 fix. Round 1: b c answered (d failed) = 400 + 40, no fix.
    // Round 2: b c = 600 + 60, 1 fix. Round 3: c = 400 + 40, no fix.
    expect(curve.points.map((p) => p.tokens)).toEqual([{ input: 400, output: 40 }, { input: 400, output: 40 }, { input: 600, output: 60 }, { input: 400, output: 40 }]);
    expect(curve.points.map((p) => p.tokensPerFix)).toEqual([440, null, 660, null]);
    expect(curve.points.map((p) => p.cost)).toEqual([0.04, 0.02, 0.02, 0.01].map((x) => expect.closeTo(x, 12)));
    expect(curve.points[2].costPerFix).toBeCloseTo(0.02, 12);
    // The unanswered attempt is not an answer: nothing to price.
    expect(curve.points.map((p) => p.unpriced)).toEqual([0, 0, 0, 0]);
    const unpriced = repairCurve(TASKS, [attempt('a-v0', 0, 0, 'pass', 100, null)], { resamples: 100 });
    expect(unpriced.points[0]).toMatchObject({ unpriced: 1, cost: 0, tokensPerFix: 110, costPerFix: 0 });
  });

  it('averages samples within a task before averaging tasks', () => {
    // Task a: 2 samples, one fixed in round 1 (share 1/2 then 1); task b: 1 sample that passes at once.
    const list = [...chain('a-v0', 0, 'semantic', 'pass'), ...chain('a-v0', 1, 'semantic', 'semantic'), ...chain('b-v0', 0, 'pass')];
    const c = repairCurve(TASKS.slice(0, 2), list, { resamples: 200 });
    expect(c.rounds).toBe(1);
    expect(c.points.map((p) => p.pass1)).toEqual([(0 + 1) / 2, (1 / 2 + 1) / 2]);
    expect(c.points.map((p) => p.chains)).toEqual([3, 3]);
  });

  it('round 0 is the run\'s pass@1; the curve runs to the run\'s last round, flat for chains that passed', () => {
    const m = computeMetrics(TASKS, ATTEMPTS, { rounds: 3 });
    expect(m.curve.points[0].pass1).toBeCloseTo(m.passAtK[1], 12);
    expect(m.curve).toEqual(repairCurve(TASKS, ATTEMPTS, { rounds: 3 }));
    // Without the run's rounds: up to the last round any attempt has.
    expect(computeMetrics(TASKS, ATTEMPTS).curve.rounds).toBe(3);
    // a and b passed (rounds 0 and 2): nothing more to ask, so they stay passed up to round 5, and spend nothing there.
    const passed = repairCurve(TASKS.slice(0, 2), ATTEMPTS, { rounds: 5, resamples: 100 });
    expect(passed.points.map((p) => p.pass1)).toEqual([1 / 2, 1 / 2, 1, 1, 1, 1]);
    expect(passed.points.slice(3).map((p) => p.tokens)).toEqual(Array(3).fill({ input: 0, output: 0 }));
    // c failed its 4 rounds: in a run of 5 repair rounds it is not finished, so it is open from round 4, not failed.
    expect(repairCurve(TASKS, ATTEMPTS, { rounds: 5, resamples: 100 }).points[4]).toMatchObject({ open: 2, chains: 2, pass1: 1 });
  });

  it('has a seeded 95% interval around each point, a point where every task agrees', () => {
    for (const p of curve.points) {
      expect(p.ci95![0]).toBeLessThanOrEqual(p.pass1);
      expect(p.ci95![1]).toBeGreaterThanOrEqual(p.pass1);
    }
    // Round 0: shares 1, 0, 0, 0; a resample of 4 has mean in {0, 1/4, ..., 1}, and P(no a) = (3/4)^4 = 0.32 > 2.5%.
    expect(curve.points[0].ci95![0]).toBe(0);
    expect(repairCurve(TASKS, ATTEMPTS, { rounds: 3, resamples: 500, seed: 's' })).toEqual(curve);
    const all = repairCurve(TASKS.slice(0, 1), ATTEMPTS, { resamples: 100 });
    expect(all.points[0].ci95).toEqual([1, 1]);
    expect(repairCurve(TASKS, [], { rounds: 1 }).points.map((p) => [p.pass1, p.ci95])).toEqual([[0, null], [0, null]]);
  });
});
