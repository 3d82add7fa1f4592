/**
 * A study's report carries each cell's determinism figures
 * (core/eval/study/study-report.ts): the cell's first answers grouped by
 * meaning with the real comparison (verify/equivalence.ts, real Z3), the
 * largest share and the consensus pass@1 in the cell table, the JSON row
 * and the text; a report built without grouping has neither.
 */
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../../src/z3/node.ts';
import type { AttemptRecord, RunRecord } from '../../../src/core/eval/run/run-types.ts';
import { canonicalConfig } from '../../../src/core/eval/session/config.ts';
import { BY_TASK, type Determinism, groupAttempts } from '../../../src/core/eval/stats/determinism.ts';
import { type CellRun, cellTable, studyReport, studyReportText } from '../../../src/core/eval/study/study-report.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import { diffSpecs } from '../../../src/core/verify/equivalence.ts';
import { loadCases } from '../../cases/load.ts';
import { makeAttempt } from '../../store/fixtures.ts';

const TASK = 'sys_dup-v0';
const oracle = oracleSpec('sys_dup')!;
const pair = (name: string) => loadCases('diff').find((c) => c.name === name)!.text;
const facts = [{ id: TASK, handler: 'sys_dup', bug_classes: [], bug_count: 0 }];

/** A cell run of one task with three first answers: each a spec and whether it passed. */
function cell(index: number, model: string, answers: readonly [string, boolean][]): CellRun {
  const config = canonicalConfig({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model, params: {}, tasks: [TASK], shots: 5, n: answers.length, repairRounds: 0 });
  const run: RunRecord = { id: `run${index}`, createdAt: 0, updatedAt: 0, config, provenance: { app: 'a', verifier: 'v' }, taskHashes: { [TASK]: 'h' }, status: 'done' };
  const attempts: AttemptRecord[] = answers.map(([spec, passes], s) => makeAttempt(run.id, TASK, s, 0, { grade: { category: passes ? 'pass' : 'semantic', extracted: spec, diagnosis: '', ms: 1 } }));
  return { index, label: model, run, attempts };
}

describe('study report: determinism per cell', () => {
  it('names each cell\'s largest share and consensus pass@1, grouped with the real comparison', async () => {
    const env = await nodeEnv();
    const cells = [
      // One behaviour, passing: every sample means the same.
      cell(0, 'steady', [[oracle, true], [pair('rewrite.py'), true], [oracle, true]]),
      // The same mistake twice beats the one right answer: the consensus fails.
      cell(1, 'shaky', [[pair('wrong-fd.py'), false], [`${pair('wrong-fd.py')}\n# again\n`, false], [oracle, true]]),
    ];
    const determinism = new Map<number, Determinism>();
    for (const c of cells) determinism.set(c.index, await groupAttempts(c.attempts, BY_TASK, () => (a, b) => diffSpecs({ handler: 'sys_dup', a, b, ghost: false }, env)));
    const report = studyReport({ name: 'd', id: 'x' }, cells, facts, { resamples: 50, determinism });
    expect(report.rows.map((r) => r.determinism)).toEqual([
      { mean_largest_share: 1, consensus_pass_at_1: 1, multi: 0, tasks: 1, queries: 0 },
      { mean_largest_share: 2 / 3, consensus_pass_at_1: 0, multi: 1, tasks: 1, queries: expect.any(Number) },
    ]);
    const table = cellTable(report);
    const col = (name: string) => table.rows.map((r) => r[table.header.indexOf(name)]);
    expect(col('largest')).toEqual(['100.0%', '66.7%']);
    expect(col('consensus')).toEqual(['100.0%', '0.0%']);
    // pass@1 r0 sees 100% and 33%: consensus says more than pass@1 alone.
    expect(col('pass@1 r0')).toEqual(['100.0%', '33.3%']);
    const text = studyReportText(report);
    expect(text).toContain('determinism (first answers grouped by meaning');
    expect(text).toContain('  2. 1 of 1 tasks have more than one behaviour');
    expect(JSON.parse(JSON.stringify(report)).rows[1].determinism.consensus_pass_at_1).toBe(0);
  }, 60_000);

  it('a report built without grouping has no determinism columns', () => {
    const report = studyReport({ name: 'd', id: 'x' }, [cell(0, 'm', [[oracle, true]])], facts, { resamples: 50 });
    expect(report.rows[0].determinism).toBeUndefined();
    expect(cellTable(report).header).not.toContain('largest');
    expect(studyReportText(report)).not.toContain('determinism');
  });
});
