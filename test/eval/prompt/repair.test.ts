/**
 * The repair round's three feedback modes on grades from the real verifier:
 * counterexample is today's prompt (golden file in prompt.test.ts), verdict
 * names the category and the failing obligations without a value, none says
 * only that the answer is wrong; a syntax error gets its coded diagnosis in
 * every mode.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeEnv } from '../../../src/z3/node.ts';
import { type GradeResult } from '../../../src/core/eval/grade/grade-types.ts';
import { gradeResponse, handlerOnlyTask } from '../../../src/core/eval/grade/grade.ts';
import { buildRepairPrompt, repairMessage, repairPrompt, repairPromptBuilder } from '../../../src/core/eval/prompt/repair.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';

const ORIGINAL: ChatMessage[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'write sys_dup' },
];
const fence = (s: string) => `\`\`\`python\n${s.trimEnd()}\n\`\`\``;

let refuted: GradeResult;
let syntax: GradeResult;
let wrong: string;
beforeAll(async () => {
  const env = await nodeEnv();
  // The oracle with one more write: `current` becomes 1, which the kernel never does.
  wrong = fence(oracleSpec('sys_dup')!.replace(/\n(\s+)return cond/, '\n$1new.current = z3.BitVecVal(1, dt.pid_t)\n$1return cond'));
  refuted = await gradeResponse(handlerOnlyTask('sys_dup'), wrong, env);
  syntax = await gradeResponse(handlerOnlyTask('sys_dup'), fence('def sys_dup(old, oldfd, pid, newfd)\n    return 1'), env);
});

describe('feedback modes', () => {
  it('counterexample is the full diagnosis, worded as before feedback modes existed', () => {
    expect(refuted.category).toBe('semantic');
    expect(refuted.diagnosis).toMatch(/current: was \S+, the spec makes it 1/);
    expect(repairPrompt(ORIGINAL, wrong, refuted, 'counterexample')).toEqual(buildRepairPrompt(ORIGINAL, wrong, refuted.diagnosis));
    expect(repairMessage(refuted, 'counterexample')).toContain(refuted.diagnosis);
  });

  it('verdict gives the category and the failing obligations, and no value', () => {
    expect(repairMessage(refuted, 'verdict')).toBe(
      'The verifier did not accept this specification: it evaluates, but it does not match the kernel (semantic). Failing obligations: current.\n\n' +
        'Correct the specification so that it matches the functional description exactly, keeping what was already right. Answer again with one ```python block holding the complete module.',
    );
  });

  it('verdict on a timeout names the obligations left open', () => {
    const timeout: GradeResult = {
      category: 'timeout',
      extracted: 'x',
      diagnosis: 'The verifier timed out on this spec',
      verdict: { status: 'timeout', obligations: [{ name: 'cond', status: 'proved' }, { name: 'procs.ofile', status: 'timeout' }] },
      ms: 1,
    };
    expect(repairMessage(timeout, 'verdict')).toMatch(/^The verifier did not accept this specification: the verifier ran out of time on it \(timeout\)\. Failing obligations: procs\.ofile\.\n/);
  });

  it('none says only that the answer is not correct', () => {
    expect(repairMessage(refuted, 'none')).toBe('The specification is not correct; try again. Answer again with one ```python block holding the complete module.');
  });

  it('a syntax error gets its coded diagnostic in every mode', () => {
    expect(syntax.category).toBe('syntax');
    expect(syntax.diagnosis).toMatch(/error SPEC\d+ at line 1/);
    for (const mode of ['counterexample', 'verdict', 'none'] as const) {
      const m = repairMessage(syntax, mode);
      expect(m, mode).toContain(syntax.diagnosis.trim());
      // The counterexample hint belongs to the counterexample mode only.
      expect(m.includes('A counterexample names'), mode).toBe(mode === 'counterexample');
    }
  });

  it('the run loop builder continues the conversation in its mode', () => {
    const next = repairPromptBuilder('none')(ORIGINAL, wrong, refuted.diagnosis, refuted);
    expect(next.slice(0, 2)).toEqual(ORIGINAL);
    expect(next.slice(2)).toEqual([
      { role: 'assistant', content: wrong },
      { role: 'user', content: repairMessage(refuted, 'none') },
    ]);
  });
});
