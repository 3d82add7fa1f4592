/**
 * Refutation by running against the solver's (docs/design.md §3, "Refuted
 * by running"): every answer of the corpora graded twice, with the concrete
 * pass first (`run`, the default) and with the solver alone, and every
 * oracle and its mutants (test/verify/spec-mutants.ts) verified both ways.
 * Prints, per corpus, how many semantic failures the run refuted, the
 * grading time both ways, and every answer whose category (or verdict, for
 * oracles and mutants) differs, or whose run names an obligation the solver
 * does not refute. Exit 1 on any difference.
 *
 *   npx tsx perf/run-refute.ts [--corpus FILE]... [--upstream FILE]... [--oracles] [--mutants N] [--misses]
 *
 * Without options: perf/corpus/per-task.jsonl, perf/corpus/answers.jsonl,
 * the oracles and up to 3 mutants per handler. --upstream: OSVBench's
 * recorded answers (upstream-answers.ts). --misses: each semantic failure
 * the run did not refute, with the obligations the solver fails.
 */
import { readFileSync } from 'node:fs';
import { nodeEnv } from '../src/z3/node.ts';
import { gradeResponse, handlerOnlyTask } from '../src/core/eval/grade/grade.ts';
import { HANDLERS } from '../src/core/kernel/handlers.ts';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { type VerifyEnv, verify } from '../src/core/verify/index.ts';
import type { Verdict } from '../src/core/verify/verdict.ts';
import { specMutants } from '../test/verify/spec-mutants.ts';
import { upstreamAnswers } from './upstream-answers.ts';

interface Row {
  readonly handler: string;
  readonly response: string;
  readonly label: string;
}

function readCorpus(file: string): Row[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { handler?: string; task_id?: string; response: string; made?: string })
    .map((r) => ({ handler: r.handler ?? r.task_id!.replace(/-v\d+$/, ''), response: r.response, label: r.made ?? r.task_id ?? '' }));
}

/** Run's failed obligations that the solver's verdict does not also fail (must be none). */
function unbacked(run: Verdict, solver: Verdict): string[] {
  if (run.status !== 'refuted' || run.foundBy !== 'run') return [];
  const failed = new Set(solver.status === 'refuted' ? solver.failed : []);
  return run.failed.filter((f) => !failed.has(f));
}

/** Each way grades with caches of its own, so neither reuses what the other proved. */
async function corpus(file: string, rows: readonly Row[], env: VerifyEnv, alone: VerifyEnv, misses: boolean): Promise<number> {
  let differ = 0;
  let semantic = 0;
  let byRun = 0;
  const ms = { run: 0, solver: 0 };
  for (const r of rows) {
    const task = handlerOnlyTask(r.handler);
    let t = Date.now();
    const solver = await gradeResponse(task, r.response, { ...alone, run: false });
    ms.solver += Date.now() - t;
    t = Date.now();
    const run = await gradeResponse(task, r.response, env);
    ms.run += Date.now() - t;
    if (solver.category === 'semantic') semantic++;
    if (run.verdict?.status === 'refuted' && run.verdict.foundBy === 'run') byRun++;
    else if (misses && solver.category === 'semantic') {
      const failed = solver.verdict?.status === 'refuted' ? solver.verdict.failed.join(',') : solver.verdict?.status;
      console.log(`MISSED ${r.handler} ${r.label}: solver fails ${failed}`);
    }
    const extra = run.verdict && solver.verdict ? unbacked(run.verdict, solver.verdict) : [];
    if (run.category !== solver.category || extra.length) {
      differ++;
      console.log(`DIFFERS ${r.handler} ${r.label}: run ${run.category} solver ${solver.category} ${extra.join(',')}`);
    }
  }
  console.log(`${file}: ${rows.length} answers, ${semantic} semantic with the solver alone, ${byRun} refuted by running; categories differ: ${differ}; grading ${ms.solver} ms solver alone, ${ms.run} ms run first`);
  return differ;
}

async function specs(env: VerifyEnv, alone: VerifyEnv, mutants: number): Promise<number> {
  let differ = 0;
  let refuted = 0;
  let byRun = 0;
  let count = 0;
  for (const h of HANDLERS) {
    const oracle = oracleSpec(h.name);
    if (oracle === undefined) continue;
    for (const m of [{ how: 'oracle', text: oracle }, ...specMutants(oracle).slice(0, mutants)]) {
      count++;
      const solver = await verify({ handler: h.name, spec: m.text, run: false }, alone);
      const run = await verify({ handler: h.name, spec: m.text }, env);
      if (solver.status === 'refuted') refuted++;
      if (run.status === 'refuted' && run.foundBy === 'run') byRun++;
      const extra = unbacked(run, solver);
      if (run.status !== solver.status || extra.length) {
        differ++;
        console.log(`DIFFERS ${h.name} ${m.how}: run ${run.status} solver ${solver.status} ${extra.join(',')}`);
      }
    }
  }
  console.log(`oracles and mutants: ${count} specs, ${refuted} refuted by the solver alone, ${byRun} refuted by running; verdicts differ: ${differ}`);
  return differ;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const files: string[] = [];
  const upstream: string[] = [];
  let oracles = false;
  let misses = false;
  let mutants = -1;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--corpus') files.push(argv[++i]);
    else if (argv[i] === '--upstream') upstream.push(argv[++i]);
    else if (argv[i] === '--misses') misses = true;
    else if (argv[i] === '--oracles') oracles = true;
    else if (argv[i] === '--mutants') mutants = Number(argv[++i]);
  }
  const all = !files.length && !upstream.length && !oracles && mutants < 0;
  if (all) files.push('perf/corpus/per-task.jsonl', 'perf/corpus/answers.jsonl');
  const env = await nodeEnv();
  const alone = await nodeEnv();
  let differ = 0;
  for (const f of files) differ += await corpus(f, readCorpus(f), env, alone, misses);
  for (const f of upstream) differ += await corpus(f, upstreamAnswers(f).map((a) => ({ handler: a.handler, response: a.response, label: `#${a.index}` })), env, alone, misses);
  if (all || oracles || mutants >= 0) differ += await specs(env, alone, mutants < 0 ? (all ? 3 : 0) : mutants);
  process.exit(differ ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
