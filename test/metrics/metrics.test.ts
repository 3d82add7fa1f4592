// pass@k against hand-computed values, and every breakdown on a hand-built set of graded attempts.
import { describe, expect, it } from 'vitest';
import type { GradeCategory, GradeResult } from '../../src/core/bench/grade-types.ts';
import { computeMetrics, distribution, passAtK, type TaskFacts } from '../../src/core/bench/metrics.ts';
import { OSVBENCH_PASS1, REFERENCE_LABEL, REFERENCE_SOURCE } from '../../src/core/bench/reference.ts';
import { type AttemptRecord, attemptId } from '../../src/core/bench/run-types.ts';

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
  return {
    id: attemptId('r', taskId, sample, round),
    runId: 'r',
    taskId,
    sample,
    round,
    promptHash: 'p',
    cacheKey: `k-${taskId}-${sample}-${round}`,
    request: { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm', params: {}, sample },
    ...(g === 'error'
      ? { error: { kind: 'context-length', code: 'LLM007', message: 'too long' } as const }
      : { response: { text: 'x', model: 'm', usage, finishReason: 'stop' as const, latencyMs }, grade: g }),
    cost: g === 'error' ? null : cost,
    createdAt: 0,
  };
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

describe('computeMetrics on hand-built attempts', () => {
  const m = computeMetrics(TASKS, ATTEMPTS);

  it('pass@1/3/5 are the means of the per-task estimators', () => {
    expect(m.tasks).toBe(3);
    expect(m.samples).toBe(14);
    expect(m.passAtK[1]).toBeCloseTo((0.4 + 0.2 + 0) / 3, 12);
    // pass@3: v0 (5,2) 0.9; v1 (5,1) 0.6; close (4,0) 0
    expect(m.passAtK[3]).toBeCloseTo((0.9 + 0.6 + 0) / 3, 12);
    // pass@5: close has only 4 answered samples; the unanswered one does not count as a failure
    expect(m.passAtK[5]).toBeUndefined();
    expect(m.passAtKSkipped[5]).toMatch(/the fewest is 4/);
  });

  it('outcome rates of the answered first answers sum to one; the unanswered one is counted apart', () => {
    expect(m.rates).toEqual({ pass: 3 / 14, syntax: 4 / 14, semantic: 5 / 14, timeout: 2 / 14, unknown: 0 });
    expect(m.uncharged).toEqual({ unanswered: 1, internal: 0 });
    // OSVBench's three categories: timeouts fold into semantic.
    expect(m.osvbench.counts).toEqual({ pass: 3, syntax: 4, semantic: 7 });
  });

  it('strict and bug-following rates', () => {
    expect(m.strictRate).toBeCloseTo(1 / 14, 12);
    expect(m.strictPasses).toBe(1);
    expect(m.strictChecked).toBe(2);
    // buggy first answers that were graded: v1 x5, close x4 (the error is not graded)
    expect(m.bugFollowing).toEqual({ samples: 9, following: 2, rate: 2 / 9 });
  });

  it('repair success per round and by the kind of failure repaired', () => {
    expect(m.repair).toEqual([
      {
        round: 1,
        attempted: 4,
        fixed: 2,
        stillFailing: 2,
        byKind: { syntax: { attempted: 2, fixed: 1 }, semantic: { attempted: 2, fixed: 1 } },
      },
      // v0 s2: semantic, semantic, pass; v1 s3: syntax, syntax, semantic
      { round: 2, attempted: 2, fixed: 1, stillFailing: 1, byKind: { semantic: { attempted: 1, fixed: 1 }, syntax: { attempted: 1, fixed: 0 } } },
    ]);
    // chains passing in some round: v0 s0,s1,s3,s2; v1 s0; close s0 -> 6 of the 14 answered
    expect(m.passAfterRepair).toBeCloseTo(6 / 14, 12);
  });

  it('by bug class is multi-label, with the bug-free variants as "correct"', () => {
    expect(m.byBugClass.correct).toEqual({ tasks: 1, samples: 5, passes: 2, pass1: 0.4 });
    expect(m.byBugClass['incorrect-pointer']).toEqual({ tasks: 1, samples: 5, passes: 1, pass1: 0.2 });
    expect(m.byBugClass['bounds-checking']).toEqual({ tasks: 2, samples: 9, passes: 1, pass1: 0.1 });
    expect(m.byBugClass['memory-leak']).toEqual({ tasks: 0, samples: 0, passes: 0, pass1: 0 });
  });

  it('by bug count and by handler', () => {
    expect(Object.keys(m.byBugCount)).toEqual(['0', '1', '2']);
    expect(m.byBugCount[2].pass1).toBeCloseTo(0.2, 12);
    expect(m.byBugCount[1].pass1).toBe(0);
    expect(m.byHandler.sys_dup).toMatchObject({ tasks: 2, samples: 10, passes: 3 });
    expect(m.byHandler.sys_dup.pass1).toBeCloseTo(0.3, 12);
    expect(m.byHandler.sys_close).toEqual({ tasks: 1, samples: 4, passes: 0, pass1: 0 });
  });

  it('tokens, cost and latency over every answered attempt', () => {
    // 20 answered attempts (21 minus the error): 19 at 100/10, one at 200/20
    expect(m.tokens).toEqual({ input: 19 * 100 + 200, output: 19 * 10 + 20 });
    expect(m.cost.unpriced).toBe(1);
    expect(m.cost.usd).toBeCloseTo(19 * 0.01, 12);
    expect(m.latency).toEqual({ count: 20, median: 1000, p90: 1000 });
  });

  it('reports a k only when every task has enough samples, and says why not', () => {
    const few = computeMetrics(TASKS, ATTEMPTS.filter((a) => a.sample < 2));
    expect(few.minSamplesPerTask).toBe(2);
    expect(few.passAtK[1]).toBeCloseTo((1 + 0.5 + 0) / 3, 12);
    expect(few.passAtK[3]).toBeUndefined();
    expect(few.passAtKSkipped[3]).toMatch(/at least 3 samples/);
    expect(computeMetrics(TASKS, []).passAtKSkipped[1]).toBe('no finished samples');
  });

  it('leaves unfinished samples out', () => {
    const pending: AttemptRecord = { ...attempt('sys_close-v2', 5, 0, grade('pass')), grade: undefined };
    const m2 = computeMetrics(TASKS, [...ATTEMPTS, pending]);
    expect(m2.samples).toBe(14);
    expect(m2.passAtK[1]).toBeCloseTo(m.passAtK[1], 12);
  });

  it('counts missing samples when n is given', () => {
    expect(computeMetrics(TASKS, ATTEMPTS, { n: 5 })).toMatchObject({ expectedSamples: 15, missingSamples: 0 });
    const cut = computeMetrics(TASKS, ATTEMPTS.filter((a) => !(a.taskId === 'sys_dup-v0' && a.sample >= 3)), { n: 5 });
    expect(cut).toMatchObject({ expectedSamples: 15, missingSamples: 2 });
    expect(m.expectedSamples).toBeNull();
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
    expect(r.samples).toBe(3);
    expect(r.passAtK[1]).toBeCloseTo(1 / 3, 12);
    expect(r.rates).toEqual({ pass: 1 / 3, syntax: 0, semantic: 0, timeout: 1 / 3, unknown: 1 / 3 });
    expect(r.uncharged).toEqual({ unanswered: 1, internal: 1 });
    expect(r.missingSamples).toBe(0);
    expect(r.osvbench.counts).toEqual({ pass: 1, syntax: 0, semantic: 2 });
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
