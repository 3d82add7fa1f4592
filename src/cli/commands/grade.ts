/**
 * `osvlab grade --responses FILE` (options: ../declarations.ts): grades
 * answers obtained elsewhere. FILE is
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
 * good ones are still graded), 3 when stopped (Ctrl+C, SIGTERM) before every
 * answer was graded (the summary says `partial`; a rerun with the same `--out`
 * grades the rest), 4 for usage errors.
 */
import { basename } from 'node:path';
import { handlerOnlyTask } from '../../core/eval/grade/grade.ts';
import { type GradeResult, MODEL_CATEGORIES, osvbenchCategory } from '../../core/eval/grade/grade-types.ts';
import type { InputProblem } from '../../core/eval/files/osvbench.ts';
import { type AnswerFile, type AnswerItem, parseAnswerFile } from '../../core/eval/files/responses.ts';
import { AnswersSession } from '../../core/eval/session/answers.ts';
import { gradingOf } from '../../core/eval/session/config.ts';
import type { RunStore } from '../../core/eval/run/run-types.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { MemoryStore } from '../../store/memory.ts';
import { UsageError } from '../args.ts';
import { parseCommand } from '../declarations.ts';
import type { RenameChoice } from '../../core/rename/choice.ts';
import { lensFor } from '../../core/rename/lens.ts';
import { sessionPorts, withGrading } from '../session-ports.ts';
import { openRunDir, shardOption, usageErrors } from '../run-scale.ts';
import { InputError, RESPONSES_CAP, readInput } from '../read-input.ts';
import { lensOption } from '../lens-option.ts';
import { RENAME_LENS } from '../../core/rename/choice.ts';
import type { WorkerStats } from '../../core/pool/pool.ts';

/**
 * Parses an answer file of either format against the benchmark tasks; in a
 * renaming, the handlers it names are renamed back (docs/rename.md).
 */
async function parseResponses(text: string, rename: RenameChoice | undefined): Promise<AnswerFile> {
  const hv6Name = rename ? (n: string) => lensFor(rename).inverse.name(n) : undefined;
  return parseAnswerFile(text, await loadTasks(), handlerOnlyTask, hv6Name);
}

/** How an answer is named in the output: its line, or its OSVBench index, syscall and sample. */
function label(item: AnswerItem): string {
  return item.index !== undefined ? `index ${item.index} ${item.syscall} sample ${item.sample}` : `line ${item.line}`;
}

/** A problem's line, with control characters (a NUL of a damaged file) shown as escapes, never written raw. */
function problemText(p: InputProblem): string {
  const message = p.message.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${p.line ? `line ${p.line}: ` : ''}${p.code} ${message}`;
}

export async function run(argv: string[]): Promise<number> {
  const { args, options: o } = parseCommand('grade', argv);
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const file = o.responses;
  if (!file) throw new UsageError('--responses FILE is required (JSONL, or an OSVBench results file)');
  const text = await readInput(file, 'responses', RESPONSES_CAP, 'decode');
  const json = o.json;
  const rename = lensOption(args, RENAME_LENS);
  const parsed = await parseResponses(text, rename);
  for (const p of parsed.problems) process.stderr.write(`${file}: ${problemText(p)}\n`);
  // Nothing to grade would make a finished run of no task: said instead, and nothing is written.
  if (parsed.items.length === 0) {
    throw new InputError('IN004', file, `${file} holds no answer to grade (${text.trim() === '' ? 'it is empty' : `${parsed.problems.length} bad line${parsed.problems.length === 1 ? '' : 's'}, listed above, and no good one`}); a JSONL line is {"task_id": ..., "response": ...}`);
  }

  const grading = gradingOf({ timeoutMs: o.budget, strict: !o.noLemmas, matrix: o.matrix });
  const shard = shardOption(o.shard);
  const tasks = await loadTasks();
  const outDir = o.out;
  // Without --out the run lives in memory: the same session, nothing written.
  const store: RunStore & { close(): Promise<void> } = outDir ? await openRunDir(outDir) : new MemoryStore();
  const started = Date.now();
  let results: readonly { item: AnswerItem; grade: GradeResult }[];
  let total: number;
  let workers: readonly WorkerStats[] = [];
  try {
    // Ctrl+C stops grading: what is graded is kept (stored with --out), the rest stays ungraded for a rerun.
    const stopping = `stopping: grades so far are kept${outDir ? '; rerun the same command to grade the rest' : ''}`;
    ({ results, total } = await withGrading({ workers: o.concurrency || undefined, stopping }, async ({ grader, runner, control, workers: stats }) => {
      const session = await usageErrors(() =>
        AnswersSession.open(
          { file: parsed, source: { format: parsed.format, file: basename(file) }, model: o.model ?? basename(file).replace(/\.[^.]*$/, ''), name: o.name, grading, shard, ...(rename ? { rename } : {}) },
          sessionPorts(tasks, store, { grader, runner }),
          outDir,
        ),
      );
      const outcome = await session.gradeAll({
        signal: control.signal,
        onGraded: ({ item, grade }) => {
          if (json) return;
          const extra = [grade.strict ? 'lemmas' : '', grade.bugFollowing ? 'bug-following' : ''].filter(Boolean).join(', ');
          process.stdout.write(`${label(item)}  ${item.task.id.padEnd(28)} ${grade.category}${extra ? ` (${extra})` : ''}\n`);
        },
      });
      workers = stats();
      return { results: outcome.results, total: session.size };
    }));
  } finally {
    await store.close();
  }
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
  // Stopped before the end: the numbers cover the answers graded so far.
  const partial = results.length < total;
  const summary = {
    format: parsed.format,
    partial,
    ...(partial ? { ungraded: total - results.length } : {}),
    answers: results.length,
    ...counts,
    strict,
    bad_lines: parsed.problems.length,
    osvbench: osv,
    grading,
    ms,
    answersPerMinute: Math.round(perMinute * 10) / 10,
    // Each verifier worker's start, jobs and busy time, ms from the start of grading: where two cores were not both at work.
    workers: workers.map((w) => ({
      ...(w.readyAt !== undefined ? { readyMs: w.readyAt - started } : {}),
      jobs: w.jobs,
      busyMs: w.busyMs,
      ...(w.lastEndAt !== undefined ? { doneMs: w.lastEndAt - started } : {}),
    })),
  };

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
          ...(grade.verdict?.status === 'refuted' ? { found_by: grade.verdict.foundBy ?? 'solver' } : {}),
          diagnosis: grade.diagnosis,
        })),
        bad: parsed.problems,
        summary,
      })}\n`,
    );
  } else {
    const parts = [...MODEL_CATEGORIES, 'internal'].map((c) => `${c} ${counts[c]}`).join(', ');
    process.stdout.write(
      `\n${results.length} answers: ${parts}; lemmas hold on ${strict} of ${counts.pass} passing${grading.strict ? '' : ' (lemmas off)'}\n` +
        `OSVBench's categories: pass ${osv.pass}, syntax ${osv.syntax}, semantic ${osv.semantic} (timeouts and unknown counted as semantic)\n` +
        (partial ? `PARTIAL: stopped with ${total - results.length} of ${total} answers not graded${outDir ? '; rerun the same command to grade them' : ''}\n` : '') +
        (parsed.problems.length ? `${parsed.problems.length} bad line${parsed.problems.length > 1 ? 's' : ''} skipped (listed above)\n` : '') +
        `solver time limit ${grading.timeoutMs} ms; ${(ms / 1000).toFixed(1)} s (${summary.answersPerMinute} answers/min)\n`,
    );
  }
  return partial ? 3 : parsed.problems.length ? 2 : 0;
}
