/**
 * The one-line reason of a failed answer (src/core/eval/run/failure-reason.ts),
 * from the diagnoses the real grader writes: a spec error, a refutation and
 * an answer without code, graded with the real Z3.
 */
import { describe, expect, it } from 'vitest';
import { failureReason } from '../../../src/core/eval/run/failure-reason.ts';
import { gradeResponse } from '../../../src/core/eval/grade/grade.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import { nodeEnv } from '../../../src/z3/node.ts';

describe('failureReason', () => {
  it('names the error, the failing obligations, or what is missing', async () => {
    const task = (await loadTasks()).find((t) => t.id === 'sys_set_runnable-v0')!;
    const env = await nodeEnv();
    const fence = (s: string) => '```python\n' + s + '\n```';
    const misnamed = await gradeResponse(task, fence('import z3\n\ndef sys_other(old, pid):\n    return z3.BoolVal(True), old\n'), env);
    expect(misnamed.category).toBe('syntax');
    expect(failureReason(misnamed)).toMatch(/^SPEC\d{3} at line \d+, column \d+: .*sys_set_runnable/);
    const wrong = await gradeResponse(task, fence(oracleSpec('sys_set_runnable')!.replace(/PROC_RUNNABLE/g, 'PROC_RUNNING')), env);
    expect(wrong.category).toBe('semantic');
    expect(failureReason(wrong)).toBe('failed: procs.state');
    const prose = await gradeResponse(task, 'I cannot write this.', env);
    expect(failureReason(prose)).toBe('The answer contains no code. Answer with exactly one ```python fenced block holding the complete spec.');
    expect(failureReason({ category: 'pass', diagnosis: 'The verifier proved the spec correct.' })).toBeUndefined();
  });
});
