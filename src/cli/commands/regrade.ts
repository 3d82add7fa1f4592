/**
 * `osvlab regrade DIR|FILE` (options: ../declarations.ts): re-verify a run. Every stored answer of a run directory or an exported
 * run file is graded again with this verifier and the run's own grading
 * policy (src/core/eval/session/regrade.ts); prints how many grades are
 * unchanged out of how many, and each changed grade with both verifier
 * versions. An answers file (JSONL or an OSVBench results file) has no
 * stored grades: its answers are graded, and counted as new. `--out DIR`
 * writes the re-verified run (this verifier's provenance) as a run directory.
 * A run regrades in the names it records (docs/rename.md); `--rename STYLE`
 * says which names an answers file is written in, and for a run must be the
 * one it records.
 *
 * Exit 0 when every grade is unchanged, 1 when some changed, 4 for usage errors.
 */
import { basename } from 'node:path';
import { handlerOnlyTask } from '../../core/eval/grade/grade.ts';
import { parseRunFile, formatValidationErrors } from '../../core/eval/files/run-file.ts';
import { parseAnswerFile } from '../../core/eval/files/responses.ts';
import { AnswersSession } from '../../core/eval/session/answers.ts';
import { regradeRun, regradeText } from '../../core/eval/session/regrade.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { PROVENANCE } from '../../core/version.ts';
import { MemoryStore } from '../../store/memory.ts';
import { UsageError, optionalInt, parseArgs } from '../args.ts';
import { declaredOptions } from '../declarations.ts';
import { namesText } from '../../core/rename/choice.ts';
import { lensFor } from '../../core/rename/lens.ts';
import { sessionPorts, withGrading } from '../session-ports.ts';
import { RESPONSES_CAP, readInput } from '../read-input.ts';
import { openRunDir } from '../run-scale.ts';
import { type StoredRun, fromRunFile, isDirectory, readRunDir } from '../stored-run.ts';
import { lensOption } from '../lens-option.ts';
import { RENAME_LENS } from '../../core/rename/choice.ts';
import { writeControl } from '../visible-output.ts';

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, declaredOptions('regrade'));
  const [input, ...extra] = args.positionals;
  if (!input) throw new UsageError('which run? e.g. osvlab regrade .osvlab/runs/gpt-4o-1a2b3c4d5e6f (a run directory, a run file or an answers file)');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const json = args.flags.has('json');
  const rename = lensOption(args, RENAME_LENS);
  const tasks = await loadTasks();
  const live = !json && process.stderr.isTTY;
  const onProgress = (done: number, total: number) => live && writeControl(process.stderr, '\r', `re-verified ${done} of ${total} answers`);
  const { stored, run, report } = await withGrading({ workers: optionalInt(args, 'concurrency') || undefined }, async ({ grader, runner }) => {
    let stored: StoredRun;
    if (isDirectory(input)) {
      stored = await readRunDir(input);
      for (const d of stored.damaged) process.stderr.write(`osvlab regrade: skipped ${d.file} line ${d.line}: ${d.reason}\n`);
    } else {
      const text = await readInput(input, 'run', RESPONSES_CAP, 'decode');
      const file = parseRunFile(text);
      if (file.ok) stored = fromRunFile(file.file, input);
      else {
        const answers = parseAnswerFile(text, tasks, handlerOnlyTask, rename ? (n) => lensFor(rename).inverse.name(n) : undefined);
        if (answers.items.length === 0) throw new UsageError(`${input} is neither a run file nor a file of answers:\n${formatValidationErrors(file.errors)}`);
        for (const p of answers.problems) process.stderr.write(`${input}: ${p.line ? `line ${p.line}: ` : ''}${p.code} ${p.message}\n`);
        // Answers without grades: the session grades them (nothing stored yet), then nothing is "changed".
        const store = new MemoryStore();
        const session = await AnswersSession.open({ file: answers, source: { format: answers.format, file: basename(input) }, model: basename(input).replace(/\.[^.]*$/, ''), ...(rename ? { rename } : {}) }, sessionPorts(tasks, store, { grader, runner }));
        const runRecord = session.run;
        const ungraded = await store.listAttempts(runRecord.id);
        stored = { source: input, run: runRecord, attempts: ungraded, prompts: [], cache: [], damaged: [] };
      }
    }
    const run = stored.run;
    if (!run) throw new UsageError(`RUNDIR001 ${input} holds no run (no run.json)`);
    if (rename && namesText(run.config.rename) !== namesText(rename)) {
      throw new UsageError(`${input} records its answers in ${namesText(run.config.rename)} names, not ${namesText(rename)}: a run regrades in the names it records (leave out --rename)`);
    }
    const report = await regradeRun(run, stored.attempts, { tasks, grader, runner }, { onProgress });
    if (live) process.stderr.write('\n');
    return { stored, run, report };
  });

  const out = args.values.get('out');
  if (out) {
    const store = await openRunDir(out);
    try {
      if ((await store.listRuns()).length) throw new UsageError(`${out} already holds a run; choose a new --out`);
      const regraded = new Map(report.attempts.map((a) => [a.id, a]));
      await store.importBundle({
        run: { ...run, provenance: PROVENANCE, updatedAt: Date.now() },
        prompts: stored.prompts,
        attempts: stored.attempts.map((a) => regraded.get(a.id) ?? a),
      });
    } finally {
      await store.close();
    }
  }

  if (json) {
    const { attempts: _all, ...rest } = report;
    process.stdout.write(`${JSON.stringify({ ...rest, ...(out ? { out } : {}) })}\n`);
  } else {
    const text = regradeText(report);
    const lines = [text.summary, text.verifiers, ...text.changes.map((c) => `  ${c}`)];
    if (out) lines.push(`wrote the re-verified run to ${out}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return report.changed.length ? 1 : 0;
}
