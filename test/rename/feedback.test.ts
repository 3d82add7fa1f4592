/**
 * Feedback (docs/rename.md): in a renamed run, a refuted answer's repair
 * prompt names only renamed fields and handlers, in each feedback mode
 * that names any: the counterexample's cells, the failing obligations and
 * the code frame of a spec error are in the model's names, and the same
 * message of a plain run names hv6's (so the check can fail).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/z3/node.ts';
import { gradeSpec } from '../../src/core/eval/grade/grade.ts';
import type { GradeResult } from '../../src/core/eval/grade/grade-types.ts';
import { buildPrompt } from '../../src/core/eval/prompt/prompt.ts';
import { promptsForRun } from '../../src/core/eval/prompt/for-run.ts';
import type { FeedbackMode } from '../../src/core/eval/run/run-types.ts';
import { gradeClosure } from '../../src/core/eval/session/grading.ts';
import type { Grader } from '../../src/core/eval/session/ports.ts';
import { RENAME_STYLES } from '../../src/core/rename/choice.ts';
import { lensFor } from '../../src/core/rename/lens.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { corpusAnswer } from '../corpus.ts';

let tasks: readonly Task[];
let grader: Grader;
beforeAll(async () => {
  tasks = await loadTasks();
  const env = await nodeEnv();
  grader = (task, spec, o) => gradeSpec(task, spec, { ...env, timeoutMs: o.timeoutMs });
});

const refuted = corpusAnswer('sys_kill', 'osvbench:kill-no-zombie-check');
/** A spec error (an unknown field) whose diagnosis has a code frame. */
const broken = '```python\ndef sys_kill(old, pid):\n    cond = old.procs[pid].killd\n    new = old.copy()\n    return cond, util.If(cond, new, old)\n```\n';
const grading = { timeoutMs: 60_000, strict: false };

describe('renamed feedback', () => {
  for (const style of RENAME_STYLES) {
    const choice = { style, seed: 1 };

    it(`${style}: the repair prompt of a refuted answer names only renamed fields and handlers`, async () => {
      const lens = lensFor(choice);
      const task = tasks.find((t) => t.id === 'sys_kill-v0')!;
      const answer = lens.forward.markdown(refuted.response);
      const grade: GradeResult = await gradeClosure({ grading, rename: choice }, grader, tasks)(task, answer);
      expect(grade.category).toBe('semantic');
      // The grade itself is the verifier's, in hv6's names.
      expect(grade.diagnosis).toContain('procs.killed');
      for (const mode of ['counterexample', 'verdict'] as FeedbackMode[]) {
        const renamed = promptsForRun({ feedback: mode, rename: choice }, tasks);
        const plain = promptsForRun({ feedback: mode }, tasks);
        const original = (await renamed.buildPrompt(task, 0)).messages;
        const message = renamed.buildRepairPrompt(original, answer, grade.diagnosis, grade).at(-1)!.content;
        const plainMessage = plain.buildRepairPrompt([], refuted.response, grade.diagnosis, grade).at(-1)!.content;
        expect(lens.originalNames(plainMessage, 'feedback'), mode).toContain('procs');
        expect(lens.originalNames(message, 'feedback'), `${mode}: ${message}`).toEqual([]);
        expect(message).toContain(`${lens.names.get('procs')}.${lens.names.get('killed')}`);
        if (mode === 'counterexample') expect(message).toContain(`${lens.names.get('pid')}=`);
      }
    });

    it(`${style}: a spec error's code frame shows the model's own line`, async () => {
      const lens = lensFor(choice);
      const task = tasks.find((t) => t.id === 'sys_kill-v0')!;
      const answer = lens.forward.markdown(broken);
      const grade = await gradeClosure({ grading, rename: choice }, grader, tasks)(task, answer);
      expect(grade.category).toBe('syntax');
      const message = promptsForRun({ feedback: 'counterexample', rename: choice }, tasks).buildRepairPrompt([], answer, grade.diagnosis, grade).at(-1)!.content;
      expect(message).toContain(`cond = old.${lens.names.get('procs')}[${lens.names.get('pid')}].killd`);
      expect(lens.originalNames(message, 'feedback')).toEqual([]);
    });
  }

  it('a renamed prompt records its renaming and is renamed in every message', () => {
    const task = tasks.find((t) => t.id === 'sys_dup-v1')!;
    const p = buildPrompt(task, 1, tasks, { rename: { style: 'opaque', seed: 4 } });
    expect(p.meta.rename).toEqual({ style: 'opaque', seed: 4 });
    const lens = lensFor({ style: 'opaque', seed: 4 });
    for (const m of p.messages) expect(lens.originalNames(m.content)).toEqual([]);
    expect(p.messages.at(-1)!.content).toContain(`Your task: \`${lens.names.get('sys_dup')}\``);
  });
});
