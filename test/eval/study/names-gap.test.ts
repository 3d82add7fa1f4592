/**
 * The contamination study's report (docs/rename.md): a study over the
 * `names` factor names the memory gap (hv6's names minus synonym names)
 * and the meaning gap (synonym minus opaque) from the paired comparison of
 * first answers, with its CI and McNemar p, whichever order the file lists
 * the names in; a study without the factor has no such line. The report
 * names the renaming its cells saw, one for every cell or by cell.
 */
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, RunRecord } from '../../../src/core/eval/run/run-types.ts';
import { canonicalConfig } from '../../../src/core/eval/session/config.ts';
import { type CellRun, namesGaps, namesLine, studyReport, studyReportText } from '../../../src/core/eval/study/study-report.ts';
import type { RenameChoice } from '../../../src/core/rename/choice.ts';
import { makeAttempt } from '../../store/fixtures.ts';

const TASKS = Array.from({ length: 10 }, (_, i) => `sys_dup-v${i % 5}`).slice(0, 5).concat(Array.from({ length: 5 }, (_, i) => `sys_kill-v${i}`));

/** A cell run whose first answers pass on the first `passes` tasks. */
function cell(index: number, rename: RenameChoice | undefined, passes: number): CellRun {
  const config = canonicalConfig({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm', params: {}, tasks: TASKS, shots: 5, repairRounds: 0, ...(rename ? { rename } : {}) });
  const run: RunRecord = { id: `run${index}`, createdAt: 0, updatedAt: 0, config, provenance: { app: 'a', verifier: 'v' }, taskHashes: Object.fromEntries(TASKS.map((t) => [t, `h-${t}`])), status: 'done' };
  const attempts: AttemptRecord[] = TASKS.map((t, i) => makeAttempt(run.id, t, 0, 0, { grade: { category: i < passes ? 'pass' : 'semantic', extracted: null, diagnosis: '', ms: 1 } }));
  return { index, label: String(index), run, attempts };
}

const facts = TASKS.map((id) => ({ id, handler: id.replace(/-v\d+$/, ''), bug_classes: [], bug_count: 0 }));

describe('names gaps', () => {
  it('names the memory and the meaning gap of a study over names', () => {
    const report = studyReport({ name: 'c', id: 'x' }, [cell(0, undefined, 8), cell(1, { style: 'synonym', seed: 1 }, 5), cell(2, { style: 'opaque', seed: 1 }, 2)], facts, { resamples: 200 });
    expect(report.factors).toEqual(['names']);
    const gaps = namesGaps(report);
    expect(gaps).toHaveLength(2);
    expect(gaps[0]).toMatch(/^memory gap \(hv6 - synonym #1\): \+30\.0 pts \[[-+]\d+\.\d, [-+]\d+\.\d\], McNemar p 0\.2500; pass@1 80\.0% vs 50\.0% over 10 tasks$/);
    expect(gaps[1]).toMatch(/^meaning gap \(synonym #1 - opaque #1\): \+30\.0 pts .*pass@1 50\.0% vs 20\.0% over 10 tasks$/);
    expect(studyReportText(report)).toContain(`  ${gaps[0]}`);
  });

  it('orients a gap by the names, not by the order of the cells', () => {
    const report = studyReport({ name: 'c', id: 'x' }, [cell(0, { style: 'synonym', seed: 1 }, 5), cell(1, undefined, 9)], facts, { resamples: 200 });
    expect(namesGaps(report)).toEqual([expect.stringMatching(/^memory gap \(hv6 - synonym #1\): \+40\.0 pts .*pass@1 90\.0% vs 50\.0%/)]);
  });

  it('has no gap line without the names factor', () => {
    const report = studyReport({ name: 'c', id: 'x' }, [cell(0, undefined, 8), cell(1, undefined, 5)], facts, { resamples: 200 });
    expect(namesGaps(report)).toEqual([]);
    expect(studyReportText(report)).not.toContain('gap');
  });

  it('names the renaming every cell saw, or the namings by cell; nothing for hv6 names alone', () => {
    const all = studyReport({ name: 'c', id: 'x' }, [cell(0, { style: 'opaque', seed: 3 }, 4), cell(1, { style: 'opaque', seed: 3 }, 5)], facts, { resamples: 200 });
    expect(all.factors).toEqual([]);
    expect(namesLine(all)).toMatch(/^names: opaque #3 in every cell \(the model saw renamed names/);
    expect(studyReportText(all).split('\n')[1]).toBe(namesLine(all));
    const mixed = studyReport({ name: 'c', id: 'x' }, [cell(0, undefined, 8), cell(1, { style: 'synonym', seed: 2 }, 5)], facts, { resamples: 200 });
    expect(namesLine(mixed)).toMatch(/^names: hv6, synonym #2 by cell /);
    const plain = studyReport({ name: 'c', id: 'x' }, [cell(0, undefined, 8), cell(1, undefined, 5)], facts, { resamples: 200 });
    expect(namesLine(plain)).toBeUndefined();
    expect(studyReportText(plain)).not.toContain('names:');
  });
});
