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
  }, 300_000);

  it('an answer the worker fails on is graded internal (or a spec error) and never changes the grades of the answers around it', async () => {
    const kill = oracleSpec('sys_kill')!;
    // A quantifier in the condition: the refutation's counterexample cannot be replayed concretely.
    // It is graded semantic now, as upstream (docs/spec-errors.md SPEC031), so this no longer makes the worker fail.
    const quantified = kill.replace('is_pid_valid(pid),', 'is_pid_valid(pid), z3.ForAll([z3.BitVec("x", 64)], z3.BitVec("x", 64) == pid),');
    expect(quantified).not.toBe(kill);
    const one = new GradePool({ size: 1, strict: false });
    try {
      const fence = (s: string) => `\`\`\`python\n${s}\`\`\``;
      const results = await Promise.all([kill, quantified, kill].map((s) => one.grade(handlerOnlyTask('sys_kill'), fence(s))));
      expect(results.map((r) => r.category)).toEqual(['pass', expect.stringMatching(/^(internal|syntax|semantic)$/), 'pass']);
      if (results[1].category === 'internal') {
        expect(one.failed).toBe(1);
        expect(results[1].internalError).toBeTruthy();
      }
    } finally {
      await one.close();
    }
  }, 300_000);

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
