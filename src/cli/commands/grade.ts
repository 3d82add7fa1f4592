/**
 * `osvlab grade --responses FILE [--out DIR] [--model NAME] [--json] [--no-strict]
 *  [--concurrency N] [--timeout MS]`: grades answers obtained elsewhere. FILE is
 * JSONL (each line `{"task_id": ..., "response": ...}` or `{"handler": ...,
 * "response": ...}`, graded against the correct implementation) or OSVBench's
 * results file (`{"<index>": {"<syscall>": [answer, ...]}}`), told apart by
 * content. Every good line is graded; each bad one is reported with its line
 * number and code. Prints one line per answer and a summary, always.
 * `--out DIR` writes a run directory that `osvlab report DIR` reads.
 * `--shard K/N` grades one part of the file, split by (task, sample) as a
 * run's chains are (src/core/eval/run/shard.ts); with `--out`, `osvlab merge`
 * combines the parts, and rerunning a shard keeps what it already graded
 * (docs/scale.md).
 *
 * Exit 0 when every line was graded, 2 when some lines were bad input (the
 * good ones are still graded), 4 for usage errors.
 */
import { basename } from 'node:path';
import { answersRun, answersRunId } from '../../core/eval/run/answers-run.ts';
import { handlerOnlyTask } from '../../core/eval/grade/grade.ts';
import { DEFAULT_GRADE_TIMEOUT_MS, type GradeResult, type GradingSettings, MODEL_CATEGORIES, osvbenchCategory } from '../../core/eval/grade/grade-types.ts';
import type { InputProblem } from '../../core/eval/files/osvbench.ts';
import { type AnswerFile, type AnswerItem, parseAnswerFile } from '../../core/eval/files/responses.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { APP_VERSION, VERIFIER_VERSION } from '../../core/version.ts';
import { JsonlRepository } from '../../store/jsonl.ts';
import { UsageError, intOption, parseArgs } from '../args.ts';
import { GradePool } from '../node-pool.ts';
import { checkShard, shardOption } from '../run-scale.ts';
import { ownsChain } from '../../core/eval/run/shard.ts';
import { RESPONSES_CAP, readInput } from '../read-input.ts';

/** Parses an answer file of either format against the benchmark tasks. */
async function parseResponses(text: string): Promise<AnswerFile> {
  return parseAnswerFile(text, await loadTasks(), handlerOnlyTask);
}

/** How an answer is named in the output: its line, or its OSVBench index, syscall and sample. */
function label(item: AnswerItem): string {
  return item.index !== undefined ? `index ${item.index} ${item.syscall} sample ${item.sample}` : `line ${item.line}`;
}

function problemText(p: InputProblem): string {
  return `${p.line ? `line ${p.line}: ` : ''}${p.code} ${p.message}`;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['responses', 'concurrency', 'timeout', 'model', 'name', 'shard', 'out'], flags: ['json', 'no-strict'] });
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const file = args.values.get('responses');
  if (!file) throw new UsageError('--responses FILE is required (JSONL, or an OSVBench results file)');
  const text = await readInput(file, 'responses', RESPONSES_CAP);
  const json = args.flags.has('json');
  const parsed = await parseResponses(text);
  for (const p of parsed.problems) process.stderr.write(`${file}: ${problemText(p)}\n`);

  const grading: GradingSettings = { timeoutMs: intOption(args, 'timeout', DEFAULT_GRADE_TIMEOUT_MS), strict: !args.flags.has('no-strict') };
  const shard = shardOption(args.values.get('shard'));
  const tasks = await loadTasks();
  const id = await answersRunId(parsed.items);
  const describeRun = (answers: readonly { item: AnswerItem; grade?: GradeResult }[]) =>
    answersRun({
      id,
      name: args.values.get('name'),
      model: args.values.get('model') ?? basename(file).replace(/\.[^.]*$/, ''),
      source: { format: parsed.format, file: basename(file) },
      tasks,
      answers,
      grading,
      provenance: { app: APP_VERSION, verifier: VERIFIER_VERSION },
      now: Date.now(),
    });
  // The split follows the whole file's run: its task order and samples per task.
  // Every shard records that run (config, task hashes), so merge sees one run.
  const wholeRun = (await describeRun(parsed.items.map((item) => ({ item })))).run;
  const whole = wholeRun.config;
  const taskIndex = new Map(whole.tasks.map((t, i) => [t, i]));
  const owned = parsed.items.filter((item) => ownsChain(shard, taskIndex.get(item.task.id)!, item.sample, whole.tasks.length, whole.n));

  const outDir = args.values.get('out');
  const out = outDir ? await JsonlRepository.open(outDir) : undefined;
  // Grades kept from an earlier session of the same command (a resumed shard).
  const kept = new Map<string, GradeResult>();
  if (out) {
    const runs = await out.listRuns();
    const here = runs[0];
    if (here && here.id !== id) throw new UsageError(`${outDir} already holds another run (${here.id}); choose another --out`);
    if (here) checkShard(here, { shard }, outDir!);
    if (here) for (const a of await out.listAttempts(id)) if (a.grade && a.grade.category !== 'internal') kept.set(`${a.taskId}|${a.sample}`, a.grade);
  }

  const pool = new GradePool({ size: intOption(args, 'concurrency', 0) || undefined, timeoutMs: grading.timeoutMs, strict: grading.strict });
  const started = Date.now();
  const results: { item: AnswerItem; grade: GradeResult }[] = [];
  try {
    await Promise.all(
      owned.map(async (item) => {
        const grade = kept.get(`${item.task.id}|${item.sample}`) ?? (await pool.grade(item.task, item.response));
        results.push({ item, grade });
        if (!json) {
          const extra = [grade.strict ? 'strict' : '', grade.bugFollowing ? 'bug-following' : ''].filter(Boolean).join(', ');
          process.stdout.write(`${label(item)}  ${item.task.id.padEnd(28)} ${grade.category}${extra ? ` (${extra})` : ''}\n`);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  results.sort((a, b) => a.item.line - b.item.line || (a.item.index ?? 0) - (b.item.index ?? 0) || a.item.sample - b.item.sample);
  const ms = Date.now() - started;

  const counts: Record<string, number> = Object.fromEntries([...MODEL_CATEGORIES, 'internal'].map((c) => [c, 0]));
  const osv: Record<string, number> = { pass: 0, syntax: 0, semantic: 0 };
  let strict = 0;
  for (const r of results) {
    counts[r.grade.category]++;
    const o = osvbenchCategory(r.grade.category);
    if (o) osv[o]++;
    if (r.grade.strict === true) strict++;
  }
  const perMinute = results.length ? (results.length / ms) * 60000 : 0;
  const summary = {
    format: parsed.format,
    answers: results.length,
    ...counts,
    strict,
    bad_lines: parsed.problems.length,
    osvbench: osv,
    grading,
    ms,
    answersPerMinute: Math.round(perMinute * 10) / 10,
  };

  if (out) {
    try {
      const bundle = await describeRun(results);
      const run = shard ? { ...wholeRun, status: bundle.run.status, createdAt: bundle.run.createdAt, updatedAt: bundle.run.updatedAt, shard } : bundle.run;
      if ((await out.listRuns()).length) {
        // A resumed shard: the run and its prompt exist; add what this session graded.
        for (const a of bundle.attempts) await out.putAttempt(a);
        await out.putRun(run);
      } else {
        await out.importBundle({ ...bundle, run });
      }
    } finally {
      await out.close();
    }
  }

  if (json) {
    process.stdout.write(
      `${JSON.stringify({
        results: results.map(({ item, grade }) => ({
          line: item.line,
          ...(item.index !== undefined ? { index: item.index, syscall: item.syscall } : {}),
          sample: item.sample,
          task_id: item.task.id,
          category: grade.category,
          strict: grade.category === 'pass' ? (grade.strict ?? null) : null,
          bug_following: grade.bugFollowing ?? null,
          diagnosis: grade.diagnosis,
        })),
        bad: parsed.problems,
        summary,
      })}\n`,
    );
  } else {
    const parts = [...MODEL_CATEGORIES, 'internal'].map((c) => `${c} ${counts[c]}`).join(', ');
    process.stdout.write(
      `\n${results.length} answers: ${parts}; strict ${strict} of ${counts.pass} passing${grading.strict ? '' : ' (strict off)'}\n` +
        `OSVBench's categories: pass ${osv.pass}, syntax ${osv.syntax}, semantic ${osv.semantic} (timeouts and unknown counted as semantic)\n` +
        (parsed.problems.length ? `${parsed.problems.length} bad line${parsed.problems.length > 1 ? 's' : ''} skipped (listed above)\n` : '') +
        `solver time limit ${grading.timeoutMs} ms; ${(ms / 1000).toFixed(1)} s (${summary.answersPerMinute} answers/min)\n`,
    );
  }
  return parsed.problems.length ? 2 : 0;
}
