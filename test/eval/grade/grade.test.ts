import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine, nodeEnv } from '../../../src/z3/node.ts';
import { gradeResponse, handlerOnlyTask, strictChecker } from '../../../src/core/eval/grade/grade.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';

const fence = (s: string) => `Here is the specification.\n\n\`\`\`python\n${s}\`\`\`\n`;

describe('grading answers with the real verifier', () => {
  const task = handlerOnlyTask('sys_kill');
  const oracle = oracleSpec('sys_kill')!;

  it('passes the oracle', async () => {
    const g = await gradeResponse(task, fence(oracle), await nodeEnv());
    expect(g.category).toBe('pass');
    expect(g.extracted).toBe(oracle.endsWith('\n') ? oracle : `${oracle}\n`);
  });

  it('grades a spec with a dropped condition as semantic, with a counterexample in the diagnosis', async () => {
    const wrong = oracle.replace(/old\.procs\[pid\]\.state != dt\.proc_state\.PROC_ZOMBIE/, 'z3.BoolVal(True)');
    expect(wrong).not.toBe(oracle);
    const g = await gradeResponse(task, fence(wrong), await nodeEnv());
    expect(g.category).toBe('semantic');
    expect(g.diagnosis).toContain('Counterexample');
    expect(g.diagnosis).toMatch(/pid=/);
  });

  it('grades prose as syntax with no extracted code', async () => {
    const g = await gradeResponse(task, 'The kill call marks a process as killed.', await nodeEnv());
    expect(g.category).toBe('syntax');
    expect(g.extracted).toBeNull();
  });

  it('grades a parse error as syntax and names the line', async () => {
    const g = await gradeResponse(task, fence('def sys_kill(old, pid)\n    return 1\n'), await nodeEnv());
    expect(g.category).toBe('syntax');
    expect(g.diagnosis).toMatch(/line 1/);
  });

  // Upstream (hv6 + z3py) gets sat from Z3 and the answer fails: semantic. Ours cannot replay
  // the model through the quantifier, which must not make it a spec error or our internal failure.
  it('grades a refuted quantified spec as semantic, with the SPEC031 warning', async () => {
    const wrong = oracle.replace(/old\.procs\[pid\]\.state != dt\.proc_state\.PROC_ZOMBIE/, "z3.ForAll([z3.BitVec('q', 64)], z3.ULE(z3.BitVec('q', 64), pid))");
    expect(wrong).not.toBe(oracle);
    const g = await gradeResponse(task, fence(wrong), await nodeEnv());
    expect(g.category, g.diagnosis).toBe('semantic');
    expect(g.verdict?.status === 'refuted' && g.verdict.counterexample?.quantified).toBe(true);
    expect(g.warnings?.map((w) => w.code)).toEqual(['SPEC031']);
    expect(g.diagnosis).toContain('SPEC031');
  });

  it('strict goes through the driver: a quantifier the lemmas refute is a strict failure, not a crash', async () => {
    const spec = `def sys_kill(old, pid):
    q = z3.BitVec('q', 64)
    new = old.copy()
    new.procs[pid].state = util.If(z3.ForAll([q], z3.ULE(q, pid)), util.i64(1), util.i64(2))
    return z3.BoolVal(True), new
`;
    expect(await strictChecker({ engine: await nodeEngine(), caches: nodeCaches() }, 60_000)('sys_kill', spec)).toBe(false);
  });

  it('grades a missing entry function as syntax', async () => {
    const g = await gradeResponse(task, fence('def helper(old):\n    return old\n'), await nodeEnv());
    expect(g.category).toBe('syntax');
  });
});
