// pass@k against hand-computed values, and every breakdown on a hand-built set of graded attempts.
import { describe, expect, it } from 'vitest';
import type { GradeCategory, GradeResult } from '../../../src/core/eval/grade/grade-types.ts';
import { computeMetrics, distribution, passAtK, type TaskFacts } from '../../../src/core/eval/stats/metrics.ts';
import { OSVBENCH_PASS1, REFERENCE_LABEL, REFERENCE_SOURCE } from '../../../src/core/eval/stats/published.ts';
import type { AttemptRecord } from '../../../src/core/eval/run/run-types.ts';
import { makeAttempt } from '../../store/fixtures.ts';

describe('pass@k', () => {
  it('matches hand-computed values', () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    // 1 - C(3,3)/C(5,3) = 1 - 1/10
    expect(passAtK(5, 2, 3)).toBeCloseTo(0.9, 12);
    // 1 - C(4,3)/C(5,3) = 1 - 4/10
    expect(passAtK(5, 1, 3)).toBeCloseTo(0.6, 12);
    expect(passAtK(5, 0, 5)).toBe(0);
    expect(passAtK(5, 1, 5)).toBe(1);
    expect(passAtK(5, 3, 3)).toBe(1);
    expect(passAtK(1, 1, 1)).toBe(1);
    expect(passAtK(1, 0, 1)).toBe(0);
  });

  it('stays exact where binomials would overflow', () => {
    // 1 - C(1990,10)/C(2000,10) = 1 - prod_{i=0}^{9} (1990-i)/(2000-i)
    let q = 1;
    for (let i = 0; i < 10; i++) q *= (1990 - i) / (2000 - i);
    expect(passAtK(2000, 10, 10)).toBeCloseTo(1 - q, 12);
  });

  it('refuses k > n with a clear error, and nonsense counts', () => {
    expect(() => passAtK(2, 1, 3)).toThrow('pass@3 needs at least 3 samples per task, but there are only 2');
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
  });
});

describe('distribution', () => {
  it('median and nearest-rank p90', () => {
    expect(distribution([5, 1, 3])).toEqual({ count: 3, median: 3, p90: 5 });
    expect(distribution([1, 2, 3, 4])).toMatchObject({ median: 2.5, p90: 4 });
    expect(distribution(Array.from({ length: 10 }, (_, i) => i + 1))).toMatchObject({ median: 5.5, p90: 9 });
    expect(distribution([])).toEqual({ count: 0, median: null, p90: null });
  });
});

// Three tasks: a correct variant, a buggy one with two classes, a buggy one with one.
const TASKS: TaskFacts[] = [
  { id: 'sys_dup-v0', handler: 'sys_dup', bug_classes: [], bug_count: 0 },
  { id: 'sys_dup-v1', handler: 'sys_dup', bug_classes: ['incorrect-pointer', 'bounds-checking'], bug_count: 2 },
  { id: 'sys_close-v2', handler: 'sys_close', bug_classes: ['bounds-checking'], bug_count: 1 },
];

function grade(category: GradeCategory, extra: Partial<GradeResult> = {}): GradeResult {
  return { category, extracted: category === 'syntax' ? null : 'def f(): pass', diagnosis: '', ms: 5, ...extra };
}

function attempt(taskId: string, sample: number, round: number, g: GradeResult | 'error', usage = { input: 100, output: 10 }, latencyMs = 1000, cost: number | null = 0.01): AttemptRecord {
  return makeAttempt('r', taskId, sample, round, g === 'error'
    ? { response: undefined, grade: undefined, error: { kind: 'context-length', code: 'LLM007', message: 'too long' }, cost: null }
    : { response: { text: 'x', model: 'm', usage, finishReason: 'stop', latencyMs }, grade: g, cost });
}

// v0: 5 samples, 2 pass (one strict)            -> 2/5
// v1: 5 samples, 1 pass; bug-following on 2      -> 1/5
// close-v2: 5 samples, 0 pass, one never answered (not the model's: left out) -> 0/4
const ATTEMPTS: AttemptRecord[] = [
  attempt('sys_dup-v0', 0, 0, grade('pass', { strict: true })),
  attempt('sys_dup-v0', 1, 0, grade('pass', { strict: false })),
  attempt('sys_dup-v0', 2, 0, grade('semantic')),
  attempt('sys_dup-v0', 3, 0, grade('syntax')),
  attempt('sys_dup-v0', 4, 0, grade('timeout')),
  attempt('sys_dup-v1', 0, 0, grade('pass', { bugFollowing: false })),
  attempt('sys_dup-v1', 1, 0, grade('semantic', { bugFollowing: true })),
  attempt('sys_dup-v1', 2, 0, grade('semantic', { bugFollowing: true })),
  attempt('sys_dup-v1', 3, 0, grade('syntax')),
  attempt('sys_dup-v1', 4, 0, grade('syntax')),
  attempt('sys_close-v2', 0, 0, grade('semantic', { bugFollowing: false })),
  attempt('sys_close-v2', 1, 0, grade('semantic')),
  attempt('sys_close-v2', 2, 0, grade('syntax')),
  attempt('sys_close-v2', 3, 0, grade('timeout')),
  attempt('sys_close-v2', 4, 0, 'error'),
  // Repairs: round 1 fixes a syntax failure and a semantic one, misses two; round 2 fixes one of those.
  attempt('sys_dup-v0', 3, 1, grade('pass')),
  attempt('sys_dup-v0', 2, 1, grade('semantic')),
  attempt('sys_dup-v1', 3, 1, grade('syntax')),
  attempt('sys_close-v2', 0, 1, grade('pass'), { input: 200, output: 20 }, 3000, null),
  attempt('sys_dup-v0', 2, 2, grade('pass')),
  attempt('sys_dup-v1', 3, 2, grade('semantic')),
];

/*
 * The expected numbers below are counted directly from the attempts by the
 * few lines that follow, written for this test alone (no code shared with
 * metrics.ts, binomials by plain products), so a change to the attempts
 * changes what is expected and a wrong count in computeMetrics cannot agree
 * with it by construction.
 */
const MODEL = ['pass', 'syntax', 'semantic', 'timeout', 'unknown'] as const;
const cat = (a: AttemptRecord) => a.grade?.category;
/** First answers that are the model's (graded, not internal). */
const firstOf = (list: readonly AttemptRecord[]) => list.filter((a) => a.round === 0 && a.grade && cat(a) !== 'internal');
const choose = (n: number, k: number) => {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
};
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
/** Per task: [answered first answers, passes]. */
const perTask = (tasks: readonly TaskFacts[], list: readonly AttemptRecord[]) =>
  tasks.map((t) => {
    const mine = firstOf(list).filter((a) => a.taskId === t.id);
    return [mine.length, mine.filter((a) => cat(a) === 'pass').length] as const;
  });
const directPassAtK = (tasks: readonly TaskFacts[], list: readonly AttemptRecord[], k: number) =>
  mean(perTask(tasks, list).map(([n, c]) => 1 - choose(n - c, k) / choose(n, k)));
/** A group's numbers, counted from its tasks' first answers. */
const group = (tasks: readonly TaskFacts[]) => {
  const counts = perTask(tasks, ATTEMPTS);
  return {
    tasks: tasks.length,
    samples: counts.reduce((a, [n]) => a + n, 0),
    passes: counts.reduce((a, [, c]) => a + c, 0),
    pass1: mean(counts.map(([n, c]) => c / n)),
  };
};
const nearestRank = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1];

describe('computeMetrics on hand-built attempts', () => {
  const m = computeMetrics(TASKS, ATTEMPTS);
  const first = firstOf(ATTEMPTS);
  const count = (c: string) => first.filter((a) => cat(a) === c).length;

  it('pass@1/3/5 are the means of the per-task estimators', () => {
    expect(m.tasks).toBe(TASKS.length);
    expect(m.samples).toBe(first.length);
    expect(m.passAtK[1]).toBeCloseTo(directPassAtK(TASKS, ATTEMPTS, 1), 12);
    expect(m.passAtK[3]).toBeCloseTo(directPassAtK(TASKS, ATTEMPTS, 3), 12);
    // pass@5: close has only 4 answered samples; the unanswered one does not count as a failure
    const fewest = Math.min(...perTask(TASKS, ATTEMPTS).map(([n]) => n));
    expect(fewest).toBeLessThan(5);
    expect(m.passAtK[5]).toBeUndefined();
    expect(m.passAtKSkipped[5]).toMatch(new RegExp(`the fewest is ${fewest}`));
  });

  it('outcome rates of the answered first answers sum to one; the unanswered one is counted apart', () => {
    expect(m.rates).toEqual(Object.fromEntries(MODEL.map((c) => [c, count(c) / first.length])));
    expect(m.uncharged).toEqual({
      unanswered: ATTEMPTS.filter((a) => a.round === 0 && a.error).length,
      internal: ATTEMPTS.filter((a) => a.round === 0 && cat(a) === 'internal').length,
    });
    // OSVBench's three categories: timeouts fold into semantic.
    expect(m.osvbench.counts).toEqual({ pass: count('pass'), syntax: count('syntax'), semantic: count('semantic') + count('timeout') + count('unknown') });
  });

  it('strict and bug-following rates', () => {
    const passes = first.filter((a) => cat(a) === 'pass');
    const strict = passes.filter((a) => a.grade!.strict === true).length;
    expect(m.strictRate).toBeCloseTo(strict / first.length, 12);
    expect(m.strictPasses).toBe(strict);
    expect(m.strictChecked).toBe(passes.filter((a) => a.grade!.strict !== undefined).length);
    // buggy first answers that were graded (the error is not graded)
    const buggy = first.filter((a) => TASKS.find((t) => t.id === a.taskId)!.bug_count > 0);
    const following = buggy.filter((a) => a.grade!.bugFollowing === true).length;
    expect(m.bugFollowing).toEqual({ samples: buggy.length, following, rate: following / buggy.length });
  });

  it('repair success per round and by the kind of failure repaired', () => {
    const rounds = [...new Set(ATTEMPTS.map((a) => a.round))].filter((r) => r > 0).sort();
    const previous = (a: AttemptRecord) => ATTEMPTS.find((b) => b.taskId === a.taskId && b.sample === a.sample && b.round === a.round - 1)!;
    expect(m.repair).toEqual(
      rounds.map((round) => {
        const tried = ATTEMPTS.filter((a) => a.round === round && a.grade);
        const fixed = tried.filter((a) => cat(a) === 'pass').length;
        const byKind: Record<string, { attempted: number; fixed: number }> = {};
        for (const a of tried) {
          const k = (byKind[cat(previous(a))!] ??= { attempted: 0, fixed: 0 });
          k.attempted++;
          if (cat(a) === 'pass') k.fixed++;
        }
        return { round, attempted: tried.length, fixed, stillFailing: tried.length - fixed, byKind };
      }),
    );
    // chains passing in some round, over the answered first answers
    const passing = first.filter((a) => ATTEMPTS.some((b) => b.taskId === a.taskId && b.sample === a.sample && cat(b) === 'pass'));
    expect(m.passAfterRepair).toBeCloseTo(passing.length / first.length, 12);
  });

  it('by bug class is multi-label, with the bug-free variants as "correct"', () => {
    expect(m.byBugClass.correct).toEqual(group(TASKS.filter((t) => t.bug_count === 0)));
    for (const c of ['incorrect-pointer', 'bounds-checking', 'memory-leak'] as const) {
      expect(m.byBugClass[c], c).toEqual(group(TASKS.filter((t) => t.bug_classes.includes(c))));
    }
  });

  it('by bug count and by handler', () => {
    const counts = [...new Set(TASKS.map((t) => t.bug_count))].sort();
    expect(Object.keys(m.byBugCount)).toEqual(counts.map(String));
    for (const n of counts) expect(m.byBugCount[n].pass1, `${n} bugs`).toBeCloseTo(group(TASKS.filter((t) => t.bug_count === n)).pass1, 12);
    for (const h of new Set(TASKS.map((t) => t.handler))) {
      const want = group(TASKS.filter((t) => t.handler === h));
      expect(m.byHandler[h], h).toMatchObject({ tasks: want.tasks, samples: want.samples, passes: want.passes });
      expect(m.byHandler[h].pass1, h).toBeCloseTo(want.pass1, 12);
    }
  });

  it('tokens, cost and latency over every answered attempt', () => {
    const answered = ATTEMPTS.filter((a) => a.response);
    expect(m.tokens).toEqual({
      input: answered.reduce((s, a) => s + a.response!.usage!.input, 0),
      output: answered.reduce((s, a) => s + a.response!.usage!.output, 0),
    });
    expect(m.cost.unpriced).toBe(answered.filter((a) => a.cost === null).length);
    expect(m.cost.usd).toBeCloseTo(answered.reduce((s, a) => s + (a.cost ?? 0), 0), 12);
    const ms = answered.map((a) => a.response!.latencyMs);
    expect(m.latency).toEqual({ count: ms.length, median: nearestRank(ms, 0.5), p90: nearestRank(ms, 0.9) });
  });

  it('reports a k only when every task has enough samples, and says why not', () => {
    const fewList = ATTEMPTS.filter((a) => a.sample < 2);
    const few = computeMetrics(TASKS, fewList);
    expect(few.minSamplesPerTask).toBe(Math.min(...perTask(TASKS, fewList).map(([n]) => n)));
    expect(few.passAtK[1]).toBeCloseTo(directPassAtK(TASKS, fewList, 1), 12);
    expect(few.passAtK[3]).toBeUndefined();
    expect(few.passAtKSkipped[3]).toMatch(/at least 3 samples/);
    expect(computeMetrics(TASKS, []).passAtKSkipped[1]).toBe('no finished samples');
  });

  it('leaves unfinished samples out', () => {
    const pending: AttemptRecord = { ...attempt('sys_close-v2', 5, 0, grade('pass')), grade: undefined };
    const m2 = computeMetrics(TASKS, [...ATTEMPTS, pending]);
    expect(m2.samples).toBe(first.length);
    expect(m2.passAtK[1]).toBeCloseTo(m.passAtK[1], 12);
  });

  it('counts missing samples when n is given', () => {
    /** First answers with an outcome: graded (internal too) or unanswered. */
    const finished = (list: readonly AttemptRecord[]) => list.filter((a) => a.round === 0 && (a.grade || a.error)).length;
    expect(computeMetrics(TASKS, ATTEMPTS, { n: 5 })).toMatchObject({ expectedSamples: TASKS.length * 5, missingSamples: TASKS.length * 5 - finished(ATTEMPTS) });
    const cutList = ATTEMPTS.filter((a) => !(a.taskId === 'sys_dup-v0' && a.sample >= 3));
    const cut = computeMetrics(TASKS, cutList, { n: 5 });
    expect(cut).toMatchObject({ expectedSamples: TASKS.length * 5, missingSamples: TASKS.length * 5 - finished(cutList) });
    expect(m.expectedSamples).toBeNull();
  });
});

describe('attempts of tasks the run does not have', () => {
  it('are left out of every number and counted, with their task ids', () => {
    const stray = [attempt('sys_nonexistent-v0', 0, 0, grade('pass')), attempt('sys_nonexistent-v0', 1, 0, grade('pass')), attempt('zzz', 0, 0, grade('semantic'))];
    const with_ = computeMetrics(TASKS, [...ATTEMPTS, ...stray]);
    const without = computeMetrics(TASKS, ATTEMPTS);
    expect(with_.strayAttempts).toEqual({ count: 3, taskIds: ['sys_nonexistent-v0', 'zzz'] });
    expect(without.strayAttempts).toEqual({ count: 0, taskIds: [] });
    expect({ ...with_, strayAttempts: null }).toEqual({ ...without, strayAttempts: null });
  });
});

describe('outcomes that are not the model\'s', () => {
  it('internal grades and unanswered requests are left out of pass@k and the rates; unknown is apart from timeout', () => {
    const list = [
      attempt('sys_dup-v0', 0, 0, grade('pass')),
      attempt('sys_dup-v0', 1, 0, grade('internal')),
      attempt('sys_dup-v0', 2, 0, 'error'),
      attempt('sys_dup-v0', 3, 0, grade('unknown')),
      attempt('sys_dup-v0', 4, 0, grade('timeout')),
    ];
    const r = computeMetrics(TASKS.slice(0, 1), list, { n: 5 });
    const first = firstOf(list);
    const count = (c: string) => first.filter((a) => cat(a) === c).length;
    expect(r.samples).toBe(first.length);
    expect(r.passAtK[1]).toBeCloseTo(directPassAtK(TASKS.slice(0, 1), list, 1), 12);
    expect(r.rates).toEqual(Object.fromEntries(MODEL.map((c) => [c, count(c) / first.length])));
    expect(r.uncharged).toEqual({ unanswered: list.filter((a) => a.error).length, internal: list.filter((a) => cat(a) === 'internal').length });
    expect(r.missingSamples).toBe(5 - list.length);
    expect(r.osvbench.counts).toEqual({ pass: count('pass'), syntax: count('syntax'), semantic: count('semantic') + count('timeout') + count('unknown') });
  });
});

describe('reference table', () => {
  it('is labelled, sourced and internally consistent', () => {
    expect(REFERENCE_LABEL).toBe('as reported by the OSVBench paper on Hyperkernel');
    expect(REFERENCE_SOURCE.paper).toContain('2504.20964');
    expect(OSVBENCH_PASS1).toHaveLength(12);
    const best = OSVBENCH_PASS1.reduce((a, b) => (b.total > a.total ? b : a));
    expect(best.model).toBe('Doubao-1.5-pro');
    expect(best.total).toBe(55.1);
    for (const r of OSVBENCH_PASS1) for (const v of [...Object.values(r.byBugClass), r.correct, r.total]) expect(v).toBeGreaterThanOrEqual(0);
  });
});
