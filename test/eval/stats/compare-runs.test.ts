/**
 * The statistics of `osvlab compare` against values worked out by hand or by
 * an independent method, and compareRuns on small made-up runs over real
 * task facts.
 */
import { describe, expect, it } from 'vitest';
import { compareRuns, mcnemarExact, pairedBootstrapCi, pairedStats } from '../../../src/core/eval/stats/compare-runs.ts';
import type { AttemptRecord, RunRecord } from '../../../src/core/eval/run/run-types.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import { makeAttempt } from '../../store/fixtures.ts';

describe('exact McNemar test', () => {
  // p = min(1, 2 * sum_{i <= min(b,c)} C(b+c, i) / 2^(b+c)), computed by hand:
  it.each([
    [1, 9, (2 * (1 + 10)) / 1024], // 0.021484375
    [9, 1, (2 * (1 + 10)) / 1024],
    [0, 6, 2 / 64], // 0.03125
    [2, 8, (2 * (1 + 10 + 45)) / 1024], // 0.109375
    [3, 0, 2 / 8],
    [0, 1, 1], // 2 * 1/2
    [5, 5, 1], // 2 * 638/1024 > 1
    [0, 0, 1],
  ])('b=%i c=%i', (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 12);
  });

  it('is tiny for a lopsided large split and rejects bad counts', () => {
    // b=0, c=30: 2 / 2^30.
    expect(mcnemarExact(0, 30)).toBeCloseTo(2 / 2 ** 30, 20);
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
  });
});

describe('paired bootstrap interval', () => {
  it('is a point when every task has the same difference', () => {
    expect(pairedBootstrapCi(Array(20).fill(0), 2000, 's')).toEqual([0, 0]);
    expect(pairedBootstrapCi(Array(20).fill(1), 2000, 's')).toEqual([1, 1]);
    expect(pairedBootstrapCi([], 2000, 's')).toBeNull();
  });

  it('agrees with the normal approximation on 100 tasks, and is reproducible from its seed', () => {
    // 30 tasks +1, 10 tasks -1, 60 tasks 0: mean 0.2, variance 0.4 - 0.04 = 0.36, standard error 0.6 / 10 = 0.06,
    // so about [0.2 - 1.96 * 0.06, 0.2 + 1.96 * 0.06] = [0.0824, 0.3176].
    const d = [...Array(30).fill(1), ...Array(10).fill(-1), ...Array(60).fill(0)];
    const ci = pairedBootstrapCi(d, 10000, 'seed-1')!;
    expect(ci[0]).toBeGreaterThan(0.0824 - 0.02);
    expect(ci[0]).toBeLessThan(0.0824 + 0.02);
    expect(ci[1]).toBeGreaterThan(0.3176 - 0.02);
    expect(ci[1]).toBeLessThan(0.3176 + 0.02);
    expect(pairedBootstrapCi(d, 10000, 'seed-1')).toEqual(ci);
    // Other seeds give the same interval to within the grid of possible means (0.01 here).
    for (const seed of ['seed-2', 'seed-3', 'seed-4']) {
      const other = pairedBootstrapCi(d, 10000, seed)!;
      expect(Math.abs(other[0] - ci[0])).toBeLessThanOrEqual(0.011);
      expect(Math.abs(other[1] - ci[1])).toBeLessThanOrEqual(0.011);
    }
  });

  it('pairedStats counts flips and the difference is B - A', () => {
    const pairs = [
      { a: true, b: true },
      { a: true, b: false },
      { a: false, b: true },
      { a: false, b: true },
      { a: false, b: false },
    ];
    const s = pairedStats(pairs, 1000, 'x');
    expect(s).toMatchObject({ tasks: 5, passA: 2, passB: 3, onlyA: 1, onlyB: 2, pass1A: 0.4, pass1B: 0.6 });
    expect(s.diff).toBeCloseTo(0.2, 12);
    expect(s.mcnemarP).toBeCloseTo(1, 12); // 2 * (1 + 3) / 8 > 1
  });
});

describe('compareRuns', () => {
  function run(id: string, tasks: string[], hashes: Record<string, string>, verifier = 'v1', repairRounds = 0): RunRecord {
    return {
      id,
      createdAt: 0,
      updatedAt: 0,
      config: { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: `m-${id}`, params: {}, tasks, shots: 5, n: 1, repairRounds, concurrency: 1, gradeConcurrency: 1 },
      provenance: { app: 'x', verifier },
      taskHashes: hashes,
      status: 'done',
    };
  }
  function attempt(runId: string, taskId: string, pass: boolean | 'error', round = 0, sample = 0): AttemptRecord {
    return makeAttempt(runId, taskId, sample, round, pass === 'error'
      ? { response: undefined, grade: undefined, error: { kind: 'server', code: 'X', message: 'outage' }, cost: null }
      : { grade: { category: pass ? 'pass' : 'semantic', extracted: null, diagnosis: '', ms: 1 }, cost: null });
  }

  it('pairs the tasks both answered, lists the others with the reason, and breaks down by bug class and count', async () => {
    const all = await loadTasks();
    const t = all.slice(0, 10);
    const h = Object.fromEntries(t.map((x) => [x.id, x.hash]));
    const idsA = t.slice(0, 8).map((x) => x.id);
    const idsB = t.slice(1, 10).map((x) => x.id);
    const A = run('a', idsA, h);
    const B = run('b', idsB, { ...h, [t[7].id]: 'changed' });
    // Pass patterns by task index (A, B): 1 both, 2 A only, 3 B only, 4 B only, 5 neither; 6: A's request failed; 7: content differs.
    const pat: Record<number, [boolean | 'error', boolean]> = { 1: [true, true], 2: [true, false], 3: [false, true], 4: [false, true], 5: [false, false], 6: ['error', true], 7: [true, true] };
    const aAtt = [attempt('a', t[0].id, true)];
    const bAtt: AttemptRecord[] = [];
    for (const [i, [pa, pb]] of Object.entries(pat)) {
      aAtt.push(attempt('a', t[+i].id, pa));
      bAtt.push(attempt('b', t[+i].id, pb));
    }
    // A repair attempt that passes does not change the first answer; B has no answer for task 8 (only in B anyway).
    aAtt.push(attempt('a', t[3].id, true, 1));
    const c = compareRuns({ run: A, attempts: aAtt }, { run: B, attempts: bAtt }, all, { resamples: 500, seed: 's' });
    expect(c.overall).toMatchObject({ tasks: 5, passA: 2, passB: 3, onlyA: 1, onlyB: 2 });
    expect(c.flips).toEqual({ onlyA: [t[2].id], onlyB: [t[3].id, t[4].id] });
    expect(c.dropped).toEqual([
      { task: t[0].id, reason: 'only-in-a' },
      { task: t[6].id, reason: 'unanswered-in-a' },
      { task: t[7].id, reason: 'content-differs' },
      { task: t[8].id, reason: 'only-in-b' },
      { task: t[9].id, reason: 'only-in-b' },
    ]);
    // By bug count and class, from the tasks' own facts.
    const paired = [1, 2, 3, 4, 5].map((i) => t[i]);
    for (const n of new Set(paired.map((x) => x.bug_count))) {
      expect(c.byBugCount[n].tasks).toBe(paired.filter((x) => x.bug_count === n).length);
    }
    for (const [cls, s] of Object.entries(c.byBugClass)) {
      const g = cls === 'correct' ? paired.filter((x) => x.bug_count === 0) : paired.filter((x) => x.bug_classes.includes(cls as never));
      expect(s.tasks).toBe(g.length);
    }
    expect(c.warnings).toEqual([]);
    const other = compareRuns({ run: A, attempts: aAtt }, { run: run('b', idsB, h, 'v2'), attempts: bAtt }, all, { resamples: 100 });
    expect(other.warnings[0]).toContain('different verifier versions');
  });

  it('pairs the runs round by round on "passed by round r", up to the fewer rounds of the two', async () => {
    const t = (await loadTasks()).slice(0, 4);
    const h = Object.fromEntries(t.map((x) => [x.id, x.hash]));
    const ids = t.map((x) => x.id);
    // A (3 rounds) fixes tasks 0 and 1 in round 1 and task 2 in round 3; B (2 rounds) fixes task 0 in round 2.
    // Task 3: B's round 1 request failed, so it is open in B from round 1 and left out there.
    const chainOf = (runId: string, taskId: string, passRound: number | null, rounds: number, failAt?: number) => {
      const out: AttemptRecord[] = [];
      for (let r = 0; r <= rounds; r++) {
        if (r === failAt) {
          out.push(attempt(runId, taskId, 'error', r));
          break;
        }
        out.push(attempt(runId, taskId, r === passRound, r));
        if (r === passRound) break;
      }
      return out;
    };
    const A = { run: run('a', ids, h, 'v1', 3), attempts: [chainOf('a', ids[0], 1, 3), chainOf('a', ids[1], 1, 3), chainOf('a', ids[2], 3, 3), chainOf('a', ids[3], null, 3)].flat() };
    const B = { run: run('b', ids, h, 'v1', 2), attempts: [chainOf('b', ids[0], 2, 2), chainOf('b', ids[1], null, 2), chainOf('b', ids[2], null, 2), chainOf('b', ids[3], null, 2, 1)].flat() };
    const c = compareRuns(A, B, t, { resamples: 200, seed: 's' });
    expect(c.byRound.map((r) => r.round)).toEqual([0, 1, 2]);
    // Round 0: nobody passes, 4 pairs. Round 1: A has 0 and 1, B none, 3 pairs. Round 2: A 0 and 1, B 0.
    expect(c.byRound.map((r) => [r.stats.tasks, r.stats.passA, r.stats.passB, r.stats.onlyA, r.stats.onlyB])).toEqual([
      [4, 0, 0, 0, 0],
      [3, 2, 0, 2, 0],
      [3, 2, 1, 1, 0],
    ]);
    expect(c.byRound[1].stats.diff).toBeCloseTo(-2 / 3, 12);
    expect(c.warnings).toEqual(['the runs have different repair rounds (3 and 2): round by round they are compared up to round 2, and each after its own last round']);
    // After its own last round: A has 0, 1 and 2 (round 3), B has 0 (round 2); task 3 is open in B.
    expect(c.afterLastRound.roundA).toBe(3);
    expect(c.afterLastRound.roundB).toBe(2);
    const last = c.afterLastRound.stats;
    expect([last.tasks, last.passA, last.passB, last.onlyA, last.onlyB]).toEqual([3, 3, 1, 2, 0]);
  });

  it('says there is nothing to compare when no task is paired, and why', async () => {
    const t = (await loadTasks()).slice(0, 4);
    const h = Object.fromEntries(t.map((x) => [x.id, x.hash]));
    const A = { run: run('a', [t[0].id, t[1].id], h), attempts: [attempt('a', t[0].id, false), attempt('a', t[1].id, false)] };
    const B = { run: run('b', [t[2].id], h), attempts: [attempt('b', t[2].id, true)] };
    expect(compareRuns(A, B, t, { resamples: 100 }).nothing).toBe('the runs have no task in common (A has 2 tasks, B 1 task)');
    const unanswered = { run: run('b', [t[0].id], h), attempts: [attempt('b', t[0].id, 'error')] };
    expect(compareRuns(A, unanswered, t, { resamples: 100 }).nothing).toBe('no task has a graded first answer in both runs (A has 2 tasks, B 1 task, 1 in common)');
    const changed = { run: run('b', [t[0].id], { ...h, [t[0].id]: 'changed' }), attempts: [attempt('b', t[0].id, true)] };
    expect(compareRuns(A, changed, t, { resamples: 100 }).nothing).toBe('no task the runs share has the same content in both (A has 2 tasks, B 1 task, 1 shared)');
    expect(compareRuns(A, { run: run('b', [t[0].id], h), attempts: [attempt('b', t[0].id, true)] }, t, { resamples: 100 }).nothing).toBeUndefined();
  });
});
