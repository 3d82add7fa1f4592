/**
 * Same grades (docs/rename.md): a corpus answer renamed forward, as a
 * model shown renamed names would write it, and graded by a renamed run's
 * grade closure (which renames it back) gets exactly the grade of the
 * original answer in a plain run.
 *
 * All 298 answers, both styles and three seeds: the closure hands the
 * verifier the very spec the plain run hands it (what a grade depends on;
 * docs/design.md §3: a query's course depends on its text alone). A seeded
 * sample of them, every corpus grade represented, is graded by the real
 * verifier (one Z3 engine, strict on) through both closures, categories and
 * strict results compared. The full sweep with the verifier is
 * `npx tsx perf/rename-grades.ts` (docs/rename.md has its last result).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/cli/z3-node.ts';
import { extractSpec } from '../../src/core/eval/grade/answer.ts';
import { gradeResponse, handlerOnlyTask, strictChecker } from '../../src/core/eval/grade/grade.ts';
import type { GradeResult } from '../../src/core/eval/grade/grade-types.ts';
import type { RunConfig } from '../../src/core/eval/run/run-types.ts';
import { gradeClosure } from '../../src/core/eval/session/grading.ts';
import type { Grader } from '../../src/core/eval/session/ports.ts';
import { RENAME_STYLES, type RenameChoice } from '../../src/core/rename/choice.ts';
import { lensFor } from '../../src/core/rename/lens.ts';
import { rng } from '../../src/core/rng.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { type CorpusAnswer, corpus } from '../corpus.ts';

const SEEDS = [1, 2, 3];
/** Answers graded by the verifier per style: enough to meet every grade of the corpus, few enough for CI. */
const SAMPLE = 10;

const answers = corpus();
let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
});

/** The answer's correct task (a handler outside the benchmark, sys_set_proc_name, has a stand-in). */
const taskOf = (a: CorpusAnswer) => tasks.find((t) => t.id === `${a.handler}-v0`) ?? handlerOnlyTask(a.handler);
const config = (rename?: RenameChoice): Pick<RunConfig, 'grading' | 'rename'> => ({ grading: { timeoutMs: 60_000, strict: true }, ...(rename ? { rename } : {}) });

describe('same grades', () => {
  it('every renamed answer reaches the verifier as the original spec, in both styles and three seeds', async () => {
    const seen: string[] = [];
    const capture: Grader = async (_task, text) => {
      seen.push(extractSpec(text) ?? '<no code>');
      return { category: 'internal', extracted: null, diagnosis: '', ms: 0 };
    };
    const plain = gradeClosure(config(), capture, tasks);
    for (const a of answers) await plain(taskOf(a), a.response);
    const originals = seen.splice(0);
    expect(originals.filter((s) => s === '<no code>')).toEqual([]);
    for (const style of RENAME_STYLES) {
      for (const seed of SEEDS) {
        const lens = lensFor({ style, seed });
        const renamed = gradeClosure(config({ style, seed }), capture, tasks);
        for (const a of answers) {
          const shown = lens.forward.markdown(a.response);
          expect(shown).not.toBe(a.response);
          await renamed(taskOf(a), shown);
        }
        const got = seen.splice(0);
        const differ = got.flatMap((s, i) => (s === originals[i] ? [] : [`${answers[i].handler} ${answers[i].made}`]));
        expect(differ, `${style} #${seed}`).toEqual([]);
      }
    }
  });

  it(`a seeded sample of ${SAMPLE} answers gets the original grades from the verifier, categories and strict`, async () => {
    const env = await nodeEnv();
    const grader: Grader = (task, text, o) =>
      gradeResponse(task, text, { ...env, timeoutMs: o.timeoutMs, ...(o.strict ? { strictCheck: strictChecker(env, o.timeoutMs) } : {}) });
    // Every grade of the corpus at least once, the rest drawn by a seeded generator.
    const draw = rng('rename/same-grades');
    const order = answers.map((a, i) => ({ a, i, k: draw() })).sort((x, y) => x.k - y.k);
    const sample = new Map<number, CorpusAnswer>();
    for (const grade of new Set(answers.map((a) => (a as { grade?: string }).grade))) {
      const first = order.find((x) => (x.a as { grade?: string }).grade === grade)!;
      sample.set(first.i, first.a);
    }
    for (const x of order) if (sample.size < SAMPLE) sample.set(x.i, x.a);
    const summary = (g: GradeResult) => `${g.category}${g.strict === undefined ? '' : g.strict ? '+strict' : '-strict'}`;
    const plain = gradeClosure(config(), grader, tasks);
    const before = new Map<number, string>();
    for (const [i, a] of sample) before.set(i, summary(await plain(taskOf(a), a.response)));
    const categories = new Set([...before.values()].map((s) => s.split(/[+-]/)[0]));
    expect(categories.size).toBeGreaterThanOrEqual(3);
    for (const style of RENAME_STYLES) {
      const choice = { style, seed: 1 };
      const renamed = gradeClosure(config(choice), grader, tasks);
      const differ: string[] = [];
      for (const [i, a] of sample) {
        const after = summary(await renamed(taskOf(a), lensFor(choice).forward.markdown(a.response)));
        if (after !== before.get(i)) differ.push(`${a.handler} ${a.made}: ${before.get(i)} -> ${after}`);
      }
      expect(differ, style).toEqual([]);
    }
    console.log(`same grades: ${sample.size} answers (${[...before.values()].join(', ')}) graded alike in ${RENAME_STYLES.join(' and ')}`);
  });
});
