/**
 * The full sweep behind test/rename/same-grades.test.ts (docs/rename.md):
 * every answer of perf/corpus/answers.jsonl graded by the real verifier
 * (one Z3 engine in this process, strict on, 60 s budget; each pass with
 * verifier caches of its own, so no grade is a cached one) in a plain run,
 * then renamed forward (as a model shown renamed names would write it) and
 * graded by a renamed run's grade closure, in both styles. Prints the
 * grades that differ (there must be none), the tallies, and the time of
 * each pass; exits 1 on any difference.
 *
 *   npx tsx perf/rename-grades.ts [--seed N] [--limit N]
 */
import { cpus, loadavg } from 'node:os';
import { nodeEnv } from '../src/z3/node.ts';
import { gradeSpec, handlerOnlyTask, strictChecker } from '../src/core/eval/grade/grade.ts';
import type { GradeResult } from '../src/core/eval/grade/grade-types.ts';
import { gradeClosure } from '../src/core/eval/session/grading.ts';
import type { Grader } from '../src/core/eval/session/ports.ts';
import { RENAME_STYLES, type RenameChoice } from '../src/core/rename/choice.ts';
import { lensFor } from '../src/core/rename/lens.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { VerifierCaches } from '../src/core/verify/caches.ts';
import { corpus } from '../test/corpus.ts';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const seed = option('--seed', 1);
const answers = corpus().slice(0, option('--limit', Infinity));
const tasks = await loadTasks();
const { engine } = await nodeEnv();
const graderWith = (caches: VerifierCaches): Grader => (task, spec, o) => {
  const env = { engine, caches };
  return gradeSpec(task, spec, { ...env, timeoutMs: o.timeoutMs, ...(o.strict ? { strictCheck: strictChecker(env, o.timeoutMs) } : {}) });
};
const summary = (g: GradeResult) => `${g.category}${g.strict === undefined ? '' : g.strict ? '+strict' : '-strict'}`;

async function pass(rename?: RenameChoice): Promise<string[]> {
  const grade = gradeClosure({ grading: { timeoutMs: 60_000, strict: true }, ...(rename ? { rename } : {}) }, graderWith(new VerifierCaches()), tasks);
  const lens = rename ? lensFor(rename) : undefined;
  const started = performance.now();
  const out: string[] = [];
  for (const a of answers) {
    const task = tasks.find((t) => t.id === `${a.handler}-v0`) ?? handlerOnlyTask(a.handler);
    out.push(summary(await grade(task, lens ? lens.forward.markdown(a.response) : a.response)));
  }
  const tally = new Map<string, number>();
  for (const s of out) tally.set(s, (tally.get(s) ?? 0) + 1);
  console.log(`${rename ? `${rename.style} #${rename.seed}` : 'hv6 names'}: ${((performance.now() - started) / 1000).toFixed(1)} s; ${[...tally].sort().map(([k, v]) => `${k} ${v}`).join(', ')}`);
  return out;
}

console.log(`${answers.length} answers; load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`);
const plain = await pass();
let differ = 0;
for (const style of RENAME_STYLES) {
  const renamed = await pass({ style, seed });
  renamed.forEach((s, i) => {
    if (s === plain[i]) return;
    differ++;
    console.log(`  differs: ${answers[i].handler} ${answers[i].made}: ${plain[i]} -> ${s}`);
  });
}
console.log(`${differ} grades differ`);
process.exit(differ ? 1 : 0);
