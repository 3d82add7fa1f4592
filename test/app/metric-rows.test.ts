/** The Runs page's metric words (src/app/lib/metric-rows.ts; issue 55 item 7). */
import { describe, expect, it } from 'vitest';
import { METRIC_TERMS, metricRows } from '../../src/app/lib/metric-rows.ts';
import { computeMetrics } from '../../src/core/eval/stats/metrics.ts';
import type { RunRecord } from '../../src/core/eval/run/run-types.ts';
import { makeAttempt } from '../store/fixtures.ts';

const TASKS = [
  { id: 'sys_kill-v0', handler: 'sys_kill', bug_classes: [], bug_count: 0 },
  { id: 'sys_kill-v1', handler: 'sys_kill', bug_classes: ['incorrect-privilege' as never], bug_count: 1 },
];
const run: RunRecord = {
  id: 'r', createdAt: 0, updatedAt: 0, status: 'done', provenance: { app: 'x', verifier: 'v' }, taskHashes: {},
  config: { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm', params: {}, tasks: TASKS.map((t) => t.id), shots: 5, n: 1, repairRounds: 0, concurrency: 1, gradeConcurrency: 1 },
};
const graded = (taskId: string, category: 'pass' | 'syntax', extra: object = {}) => makeAttempt('r', taskId, 0, 0, { grade: { category, extracted: null, diagnosis: '', ms: 1, ...extra }, cost: null });
const rows = (attempts: ReturnType<typeof graded>[]) => Object.fromEntries(metricRows(computeMetrics(TASKS, attempts), run));

describe('the metrics table', () => {
  it('says there is nothing to count where nothing passed, instead of "0 of 0" beside a rate', () => {
    const r = rows([graded('sys_kill-v0', 'syntax'), graded('sys_kill-v1', 'syntax')]);
    expect(r['lemma passes']).toBe('– (no first answer passed)');
    expect(r['lemma pass rate (of all first answers)']).toBe('0.0%');
    expect(r['bug-following']).toBe('0 of 1 graded answer to buggy variants (0.0%)');
  });

  it('counts lemma passes of passing first answers, with one plural rule', () => {
    const r = rows([graded('sys_kill-v0', 'pass', { strict: true }), graded('sys_kill-v1', 'pass', { strict: false, bugFollowing: true })]);
    expect(r['lemma passes']).toBe('1 of 2 passing first answers');
    expect(r['lemma pass rate (of all first answers)']).toBe('50.0%');
    expect(r['bug-following']).toBe('1 of 1 graded answer to buggy variants (100.0%)');
    expect(r['tokens in / out']).toMatch(/^\d+ \/ \d+$/);
  });

  it('defines pass@1 apart from the pass rate, and bug-following', () => {
    const terms = Object.fromEntries(METRIC_TERMS);
    expect(terms['pass@1']).toContain('averaged over tasks');
    expect(terms['pass rate']).toContain('every sample counted alike');
    expect(terms['bug-following']).toContain('refines the buggy implementation');
  });
});
