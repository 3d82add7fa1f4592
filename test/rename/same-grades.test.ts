/**
 * Same grades (docs/rename.md): a corpus answer renamed forward, as a
 * model shown renamed names would write it, and graded by a renamed run's
 * grade closure (which renames it back) gets exactly the grade of the
 * original answer in a plain run.
 *
 * All 298 answers, both styles and three seeds: the closure hands the
 * verifier the very spec the plain run hands it (what a grade depends on;
 * docs/design.md §3: a query's course depends on its text alone). A seeded
 * sample of them, every corpus grade and family represented, and the oracle
 * specs of three handlers graded on a buggy variant of their kernel (a
 * task of the renamed benchmark other than the correct one), is graded by
 * the real verifier (one Z3 engine, strict on) through both closures, each
 * naming with fresh verifier caches so that no grade is a cached one; the
 * verdicts are compared answer for answer (category, strict, bug-following,
 * status, failed obligations, every obligation's status). The full sweep
 * with the verifier is `npx tsx perf/rename-grades.ts` (docs/rename.md has
 * its last result).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/z3/node.ts';
import { gradeSpec, handlerOnlyTask, strictChecker } from '../../src/core/eval/grade/grade.ts';
import type { GradeResult } from '../../src/core/eval/grade/grade-types.ts';
import type { RunConfig } from '../../src/core/eval/run/run-types.ts';
import { gradeClosure } from '../../src/core/eval/session/grading.ts';
import type { Grader } from '../../src/core/eval/session/ports.ts';
import { RENAME_STYLES, type RenameChoice, namesText } from '../../src/core/rename/choice.ts';
import { lensFor } from '../../src/core/rename/lens.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { rng } from '../../src/core/rng.ts';
import { VerifierCaches } from '../../src/core/verify/caches.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { type CorpusAnswer, corpus } from '../corpus.ts';
import { codeAnswer } from '../fake-provider/answers.ts';

const SEEDS = [1, 2, 3];
/** Corpus answers graded by the verifier per naming: enough to meet every grade and family of the corpus, few enough for CI. */
const SAMPLE = 8;
/** Buggy variants (of different handlers) the oracles are graded on. */
const BUGGY = 3;

const answers = corpus();
let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
});

/** The answer's correct task (a handler outside the benchmark, sys_set_proc_name, has a stand-in). */
const taskOf = (a: CorpusAnswer) => tasks.find((t) => t.id === `${a.handler}-v0`) ?? handlerOnlyTask(a.handler);
/**
 * What a verdict is, whichever names the model saw: the category, strict,
 * bug-following, the verifier's status, the failed obligations and every
 * obligation's status (a counterexample's values are the solver's choice,
 * so they are compared, word for word, only in the log).
 */
function verdictOf(g: GradeResult): string {
  const v = g.verdict;
  const obligations = v && 'obligations' in v ? v.obligations.map((o) => `${o.name}:${o.status}`).join(',') : '';
  return [
    `${g.category}${g.strict === undefined ? '' : g.strict ? '+strict' : '-strict'}`,
    `bug-following=${g.bugFollowing ?? '-'}`,
    v?.status ?? 'no verdict',
    v?.status === 'refuted' ? `failed=${[...v.failed].sort().join(',')}` : '',
    v?.status === 'spec-error' ? `error=${v.error.code}@${v.error.span?.line}:${v.error.span?.column} ${v.error.message}` : '',
    obligations,
  ].join(' ');
}
const config = (rename?: RenameChoice): Pick<RunConfig, 'grading' | 'rename'> => ({ grading: { timeoutMs: 60_000, strict: true }, ...(rename ? { rename } : {}) });

describe('same grades', () => {
  it('every renamed answer reaches the verifier as the original spec, in both styles and three seeds', async () => {
    const seen: string[] = [];
    const capture: Grader = async (_task, spec) => {
      seen.push(spec ?? '<no code>');
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

  it(`a seeded sample graded cold by the verifier (${SAMPLE} corpus answers, the oracles on ${BUGGY} buggy variants) gets the plain verdicts`, async () => {
    const { engine } = await nodeEnv();
    // One engine for every naming, each naming with caches of its own: no grade is served from another naming's proofs.
    const graderWith = (caches: VerifierCaches): Grader => (task, spec, o) => {
      const env = { engine, caches };
      return gradeSpec(task, spec, { ...env, timeoutMs: o.timeoutMs, ...(o.strict ? { strictCheck: strictChecker(env, o.timeoutMs) } : {}) });
    };
    const draw = rng('rename/same-grades');
    // Every grade and every family of the corpus (rewrite, near miss, wrong, OSVBench-style) at least once, the rest drawn.
    const order = answers.map((a) => ({ a, k: draw() })).sort((x, y) => x.k - y.k).map((x) => x.a);
    const sample = new Set<CorpusAnswer>();
    for (const key of [(a: CorpusAnswer) => (a as { grade?: string }).grade, (a: CorpusAnswer) => a.made.split(':')[0]]) {
      for (const k of new Set(answers.map(key))) sample.add(order.find((a) => key(a) === k)!);
    }
    for (const a of order) if (sample.size < SAMPLE) sample.add(a);
    // The oracle of a handler against one of its buggy variants: refuted, with a counterexample, on a kernel with a bug.
    const buggy = tasks.filter((t) => t.bug_count > 0).map((t) => ({ t, k: draw() })).sort((x, y) => x.k - y.k).map((x) => x.t);
    const cases: { what: string; task: Task; response: string }[] = [
      ...[...sample].map((a) => ({ what: `${a.handler} ${a.made}`, task: taskOf(a), response: a.response })),
      ...buggy.filter((t, i) => buggy.findIndex((u) => u.handler === t.handler) === i).slice(0, BUGGY).map((t) => ({ what: `oracle on ${t.id}`, task: t, response: codeAnswer(oracleSpec(t.handler)!) })),
    ];
    const timings: string[] = [];
    const grade = async (rename?: RenameChoice) => {
      const closure = gradeClosure(config(rename), graderWith(new VerifierCaches()), tasks);
      const lens = rename && lensFor(rename);
      const started = performance.now();
      const out: GradeResult[] = [];
      for (const c of cases) out.push(await closure(c.task, lens ? lens.forward.markdown(c.response) : c.response));
      timings.push(`${rename ? namesText(rename) : 'hv6'} ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return out;
    };
    const plain = await grade();
    const verdicts = plain.map(verdictOf);
    // The sample can tell grades apart: passes with and without strict, refutations, syntax errors.
    expect(new Set(verdicts.map((v) => v.split(' ')[0]))).toEqual(new Set(['pass+strict', 'pass-strict', 'semantic', 'syntax']));
    let sameDiagnosis = 0;
    for (const style of RENAME_STYLES) {
      const renamed = await grade({ style, seed: 1 });
      const differ = renamed.flatMap((g, i) => (verdictOf(g) === verdicts[i] ? [] : [`${cases[i].what}: ${verdicts[i]} -> ${verdictOf(g)}`]));
      expect(differ, style).toEqual([]);
      // The spec the verifier graded is the plain one, character for character.
      expect(renamed.map((g) => g.extracted)).toEqual(plain.map((g) => g.extracted));
      sameDiagnosis += renamed.filter((g, i) => g.diagnosis === plain[i].diagnosis).length;
    }
    console.log(`same grades: ${cases.length} answers graded cold alike in hv6, ${RENAME_STYLES.join(' and ')} names (${timings.join(', ')}); diagnoses word for word alike ${sameDiagnosis} of ${cases.length * RENAME_STYLES.length}`);
  });
});
