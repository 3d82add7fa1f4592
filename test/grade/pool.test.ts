import { afterAll, describe, expect, it } from 'vitest';
import { GradePool } from '../../src/cli/grade-pool.ts';
import { handlerOnlyTask } from '../../src/core/bench/grade.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';

describe('grading pool of worker threads', () => {
  const pool = new GradePool({ size: 2 });
  afterAll(() => pool.close());

  it('grades answers in parallel workers with the real verifier', async () => {
    const answers = ['sys_alloc_vector', 'sys_reclaim_vector', 'sys_alloc_port'].map((h) => ({
      task: handlerOnlyTask(h),
      response: `\`\`\`python\n${oracleSpec(h)}\`\`\``,
    }));
    answers.push({ task: handlerOnlyTask('sys_alloc_port'), response: 'no code here' });
    const results = await Promise.all(answers.map((a) => pool.grade(a.task, a.response)));
    expect(results.map((r) => r.category)).toEqual(['pass', 'pass', 'pass', 'syntax']);
  });

  it('kills a worker that exceeds the job limit, records a timeout and keeps serving', async () => {
    const tight = new GradePool({ size: 1, jobLimitMs: 1 });
    try {
      const r = await tight.grade(handlerOnlyTask('sys_kill'), `\`\`\`python\n${oracleSpec('sys_kill')}\`\`\``);
      expect(r.category).toBe('timeout');
      expect(tight.killed).toBe(1);
    } finally {
      await tight.close();
    }
    const again = await pool.grade(handlerOnlyTask('sys_alloc_vector'), `\`\`\`python\n${oracleSpec('sys_alloc_vector')}\`\`\``);
    expect(again.category).toBe('pass');
  });
});
