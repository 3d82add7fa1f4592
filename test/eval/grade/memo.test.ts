import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine } from '../../../src/z3/node.ts';
import { gradeResponse, strictChecker } from '../../../src/core/eval/grade/grade.ts';
import { GradeMemo } from '../../../src/core/eval/grade/grade-memo.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';

const fence = (s: string) => `\`\`\`python\n${s}\`\`\`\n`;

describe('grade memo', () => {
  it('grades the same spec for the five variants of a handler with one refinement proof and one lemma check', async () => {
    const engine = await nodeEngine();
    const tasks = (await loadTasks()).filter((t) => t.handler === 'sys_kill');
    expect(tasks).toHaveLength(5);
    const memo = new GradeMemo();
    let strictCalls = 0;
    const check = strictChecker({ engine, caches: nodeCaches() }, 20000);
    const strictCheck = (h: string, s: string) => {
      strictCalls++;
      return check(h, s);
    };
    const answer = fence(oracleSpec('sys_kill')!);
    const fresh = await gradeResponse(tasks[0], answer, { engine, caches: nodeCaches(), strictCheck: check });
    const graded = [];
    for (const t of tasks) graded.push(await gradeResponse(t, answer, { engine, caches: nodeCaches(), strictCheck, memo }));
    // The same outcome as without the memo, for every variant.
    for (const g of graded) {
      expect(g.category).toBe(fresh.category);
      expect(g.strict).toBe(fresh.strict);
      expect(g.verdict?.status).toBe('verified');
    }
    expect(fresh.category).toBe('pass');
    expect(strictCalls).toBe(1);
    expect(memo.misses).toBe(2); // one verdict, one lemma check
    expect(memo.hits).toBe(8);
  }, 300_000);

  it('keeps different specs, implementations and handlers apart', async () => {
    const engine = await nodeEngine();
    const memo = new GradeMemo();
    const oracle = oracleSpec('sys_kill')!;
    const wrong = oracle.replace(/old\.procs\[pid\]\.state != dt\.proc_state\.PROC_ZOMBIE/, 'z3.BoolVal(True)');
    expect(wrong).not.toBe(oracle);
    const a = await memo.verify({ handler: 'sys_kill', spec: oracle }, { engine, caches: nodeCaches() });
    const b = await memo.verify({ handler: 'sys_kill', spec: wrong }, { engine, caches: nodeCaches() });
    expect(a.status).toBe('verified');
    expect(b.status).toBe('refuted');
    const task = (await loadTasks()).find((t) => t.id === 'sys_kill-v1')!;
    const c = await memo.verify({ handler: 'sys_kill', spec: oracle, implSource: task.impl_override }, { engine, caches: nodeCaches() });
    expect(c.status).toBe('refuted');
    expect(memo.misses).toBe(3);
    expect(await memo.verify({ handler: 'sys_kill', spec: wrong }, { engine, caches: nodeCaches() })).toBe(b);
    expect(memo.hits).toBe(1);
  });

  it('forgets the oldest entries beyond its capacity and never keeps a thrown error', async () => {
    const engine = await nodeEngine();
    const memo = new GradeMemo(1);
    const oracle = oracleSpec('sys_kill')!;
    await expect(memo.verify({ handler: 'no_such_handler', spec: oracle }, { engine, caches: nodeCaches() })).rejects.toThrow();
    await expect(memo.verify({ handler: 'no_such_handler', spec: oracle }, { engine, caches: nodeCaches() })).rejects.toThrow();
    expect(memo.hits).toBe(0);
    await memo.verify({ handler: 'sys_kill', spec: oracle }, { engine, caches: nodeCaches() });
    await memo.verify({ handler: 'sys_kill', spec: `${oracle}\n# another\n` }, { engine, caches: nodeCaches() });
    await memo.verify({ handler: 'sys_kill', spec: oracle }, { engine, caches: nodeCaches() });
    expect(memo.hits).toBe(0);
  });
});
