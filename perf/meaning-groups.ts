/**
 * What grouping by meaning costs on top of grading (docs/research.md §8):
 * grades every answer of a corpus in this process (refinement against the
 * correct kernel, no lemma checks: the cheapest grading, so the ratio is
 * the harshest), then groups the answers per handler by meaning
 * (core/eval/stats/determinism.ts over verify/equivalence.ts), and prints
 * both times, their ratio (the target is at most 1.5), how many equivalence
 * queries were asked and their median time. Also times `diff` of two
 * oracle-sized specs against `verify` of one (target: no slower).
 *
 *   npx tsx perf/meaning-groups.ts [--responses FILE] [--upstream RESULTS.json]
 *
 * --responses (default perf/corpus/answers.jsonl): a JSONL of
 * `{handler, response}` or `{task_id, response}`; each handler's answers are
 * one group. --upstream: OSVBench's results file (upstream-answers.ts),
 * grouped per handler, one sample per variant shown; then it also prints the finding of
 * docs/research.md §8: for how many handlers the model wrote one spec
 * whatever code it was shown, and for how many an answer to buggy code
 * differs from the answer to the correct code (the spec followed the code).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeEnv } from '../src/z3/node.ts';
import { extractSpec } from '../src/core/eval/grade/answer.ts';
import { gradeResponse, handlerOnlyTask } from '../src/core/eval/grade/grade.ts';
import { type MeaningSample, type TaskMeaning, determinismOf, groupTask } from '../src/core/eval/stats/determinism.ts';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { requireHandler } from '../src/core/kernel/handlers.ts';
import { diffSpecs } from '../src/core/verify/equivalence.ts';
import { clearVerifierCaches, verify } from '../src/core/verify/index.ts';
import { upstreamAnswers } from './upstream-answers.ts';

interface Answer {
  readonly handler: string;
  readonly response: string;
  /** The variant shown (upstream: 0 correct, 1-4 buggy); the answer's place in its group otherwise. */
  readonly sample: number;
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function corpus(path: string): Answer[] {
  const per = new Map<string, number>();
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const j = JSON.parse(l) as { handler?: string; task_id?: string; response: string };
      const handler = requireHandler(j.handler ?? j.task_id!.replace(/-v\d+$/, '')).name;
      const sample = per.get(handler) ?? 0;
      per.set(handler, sample + 1);
      return { handler, response: j.response, sample };
    });
}

async function main(): Promise<void> {
  const env = await nodeEnv();
  const upstreamPath = flag('--upstream');
  const answers = upstreamPath ? upstreamAnswers(upstreamPath) : corpus(flag('--responses') ?? join(import.meta.dirname, 'corpus', 'answers.jsonl'));
  const graded: { a: Answer; spec: string | null; passes: boolean; runs: boolean }[] = [];
  const t0 = Date.now();
  for (const a of answers) {
    const g = await gradeResponse(handlerOnlyTask(a.handler), a.response, { ...env, timeoutMs: 60_000 });
    graded.push({ a, spec: g.extracted, passes: g.category === 'pass', runs: g.category !== 'syntax' && g.extracted !== null });
  }
  const gradeMs = Date.now() - t0;
  const t1 = Date.now();
  const tasks: TaskMeaning[] = [];
  const handlers = [...new Set(answers.map((a) => a.handler))].sort();
  for (const h of handlers) {
    const samples: MeaningSample[] = graded.filter((g) => g.a.handler === h).map((g) => ({ sample: g.a.sample, spec: g.spec, passes: g.passes, runs: g.runs }));
    tasks.push(await groupTask(h, samples, async (a, b) => diffSpecs({ handler: h, a, b, ghost: false, timeoutMs: 20_000 }, env)));
  }
  const groupMs = Date.now() - t1;
  const d = determinismOf(tasks);
  console.log(`answers: ${answers.length} (${handlers.length} handlers), ${graded.filter((g) => g.passes).length} pass`);
  console.log(`grading: ${(gradeMs / 1000).toFixed(1)} s; grouping: ${(groupMs / 1000).toFixed(1)} s (${((100 * groupMs) / gradeMs).toFixed(1)}% on top of grading; target at most 50%)`);
  console.log(`equivalence queries: ${d.queries}, median ${Math.round(d.median_query_ms)} ms`);
  console.log(`classes: ${tasks.reduce((n, t) => n + t.classes.length, 0)}; mean largest share ${(100 * d.mean_largest_share).toFixed(1)}%, consensus pass@1 ${(100 * d.consensus_pass_at_1).toFixed(1)}%`);
  if (upstreamPath) {
    // The finding: one behaviour whatever code was shown, or an answer to buggy code apart from the answer to the correct code.
    const one = tasks.filter((t) => t.classes.length === 1 && t.classes[0].runs).length;
    const moved = tasks.filter((t) => {
      const home = t.classes.find((c) => c.samples.includes(0));
      return home !== undefined && home.runs && t.classes.some((c) => c !== home && c.runs && c.samples.some((s) => s > 0));
    });
    const worse = moved.filter((t) => t.classes.find((c) => c.samples.includes(0))!.passes);
    console.log(`finding: ${one} of ${tasks.length} handlers got one spec whatever code was shown; for ${moved.length} an answer to buggy code means something else than the answer to the correct code (${worse.length} of them: the answer to the correct code passes)`);
  }
  // diff of two oracle-sized specs against verify of one: clone_proc (the largest oracle) and its De Morgan rewrite from the
  // corpus, which no committed proof covers, so verify proves it and diff asks its query (and the ghost note's); both
  // on emptied caches (the implementation's run and the committed oracle proofs are made or read again).
  const h = 'clone_proc';
  const line = readFileSync(join(import.meta.dirname, 'corpus', 'answers.jsonl'), 'utf8').split('\n').find((l) => l.includes('"handler":"clone_proc"') && l.includes('rewrite:de-morgan'));
  const rewrite = extractSpec((JSON.parse(line!) as { response: string }).response)!;
  clearVerifierCaches(env.caches);
  const tv = Date.now();
  const verdict = await verify({ handler: h, spec: rewrite }, env);
  const verifyMs = Date.now() - tv;
  clearVerifierCaches(env.caches);
  const td = Date.now();
  const v = await diffSpecs({ handler: h, a: oracleSpec(h)!, b: `${rewrite}\n# another text\n` }, env);
  const diffMs = Date.now() - td;
  console.log(`${h}: verify of the rewrite ${verifyMs} ms (${verdict.status}); diff of the oracle and the rewrite ${diffMs} ms (${v.status}, ${v.queries} queries, ${(diffMs / verifyMs).toFixed(2)}x verify)`);
  process.exit(0);
}

await main();
