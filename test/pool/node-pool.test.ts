import { afterAll, describe, expect, it } from 'vitest';
import { nodeVerifier } from '../../src/cli/node-pool.ts';
import { extractSpec } from '../../src/core/eval/grade/answer.ts';
import { handlerOnlyTask } from '../../src/core/eval/grade/grade.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';

describe('grading pool of worker threads', () => {
  const pool = nodeVerifier({ size: 2 });
  afterAll(() => pool.dispose());

  it('grades specs in parallel workers with the real verifier; an answer without code never reaches one', async () => {
    const answers = ['sys_alloc_vector', 'sys_reclaim_vector', 'sys_alloc_port'].map((h) => ({
      task: handlerOnlyTask(h),
      response: `\`\`\`python\n${oracleSpec(h)}\`\`\``,
    }));
    answers.push({ task: handlerOnlyTask('sys_alloc_port'), response: 'no code here' });
    const results = await Promise.all(answers.map((a) => pool.grade(a.task, extractSpec(a.response), { strict: true })));
    expect(results.map((r) => r.category)).toEqual(['pass', 'pass', 'pass', 'syntax']);
    expect(results[0].extracted).toBe(extractSpec(answers[0].response));
    expect(results[3].extracted).toBeNull();
  }, 300_000);

  it('a job the worker fails on is graded internal, the worker is replaced, and the grades around it are unchanged', async () => {
    const kill = oracleSpec('sys_kill')!;
    // A task naming a handler the kernel does not have: the grading job itself
    // throws (UnknownHandlerError) inside the worker, which is the pool's
    // "worker failed" path (a grader failure, never the model's).
    const broken = { ...handlerOnlyTask('sys_kill'), id: 'sys_nonexistent-v0', handler: 'sys_nonexistent' };
    const one = nodeVerifier({ size: 1 });
    try {
      const tasks = [handlerOnlyTask('sys_kill'), broken, handlerOnlyTask('sys_kill')];
      const results = await Promise.all(tasks.map((t) => one.grade(t, kill)));
      expect(results.map((r) => r.category)).toEqual(['pass', 'internal', 'pass']);
      expect(one.failures).toBe(1);
      expect(results[1].internalError).toMatch(/unknown handler 'sys_nonexistent'/);
      expect(results[1].extracted).toBe(kill);
    } finally {
      await one.dispose();
    }
  }, 300_000);

  it('kills a worker that exceeds the job limit, records a timeout and keeps serving', async () => {
    const tight = nodeVerifier({ size: 1 });
    try {
      const r = await tight.grade(handlerOnlyTask('sys_kill'), oracleSpec('sys_kill')!, { hardTimeoutMs: 1 });
      expect(r.category).toBe('timeout');
      expect(tight.overruns).toBe(1);
    } finally {
      await tight.dispose();
    }
    const again = await pool.grade(handlerOnlyTask('sys_alloc_vector'), oracleSpec('sys_alloc_vector')!);
    expect(again.category).toBe('pass');
  });

  it('a closed pool says so', async () => {
    const closed = nodeVerifier({ size: 1 });
    await closed.dispose();
    await expect(closed.grade(handlerOnlyTask('sys_kill'), oracleSpec('sys_kill')!)).rejects.toThrow(/the grading pool is closed/);
  });
});
