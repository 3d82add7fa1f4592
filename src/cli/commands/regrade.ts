/**
 * `osvlab regrade DIR|FILE [--out DIR] [--json] [--concurrency N]`:
 * re-verify a run. Every stored answer of a run directory or an exported
 * run file is graded again with this verifier and the run's own grading
 * policy (src/core/eval/session/regrade.ts); prints how many grades are
 * unchanged out of how many, and each changed grade with both verifier
 * versions. An answers file (JSONL or an OSVBench results file) has no
 * stored grades: its answers are graded, and counted as new. `--out DIR`
 * writes the re-verified run (this verifier's provenance) as a run directory.
 *
 * Exit 0 when every grade is unchanged, 1 when some changed, 4 for usage errors.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { handlerOnlyTask } from '../../core/eval/grade/grade.ts';
import { parseRunFile, formatValidationErrors } from '../../core/eval/files/run-file.ts';
import { parseAnswerFile } from '../../core/eval/files/responses.ts';
import type { AttemptRecord, PromptRecord, RunRecord } from '../../core/eval/run/run-types.ts';
import { AnswersSession } from '../../core/eval/session/answers.ts';
import { type RegradeReport, describeGrade, regradeRun } from '../../core/eval/session/regrade.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { PROVENANCE } from '../../core/version.ts';
import { JsonlRepository, readJsonl } from '../../store/jsonl.ts';
import { MemoryStore } from '../../store/memory.ts';
import { UsageError, intOption, parseArgs } from '../args.ts';
import { GradePool } from '../node-pool.ts';
import { RESPONSES_CAP, readInput } from '../read-input.ts';
import { openRunDir, usageErrors } from '../run-scale.ts';

interface StoredRun {
  readonly run: RunRecord;
  readonly attempts: readonly AttemptRecord[];
  readonly prompts: readonly PromptRecord[];
}

async function readRunDir(dir: string): Promise<StoredRun> {
  const store = await usageErrors(() => JsonlRepository.open(dir, { create: false }));
  const [run] = await store.listRuns();
  if (!run) throw new UsageError(`RUNDIR001 ${dir} holds no run (no run.json)`);
  const prompts = (await usageErrors(() => readJsonl<PromptRecord>(`${dir}/prompts.jsonl`))).rows;
  return { run, attempts: await store.listAttempts(run.id), prompts };
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['out', 'concurrency'], flags: ['json'] });
  const [input, ...extra] = args.positionals;
  if (!input) throw new UsageError('which run? e.g. osvlab regrade .osvlab/runs/gpt-4o-1a2b3c4d5e6f (a run directory, a run file or an answers file)');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const json = args.flags.has('json');
  const tasks = await loadTasks();
  const pool = new GradePool({ size: intOption(args, 'concurrency', 0) || undefined });
  const ports = { tasks, grader: pool.gradeWith.bind(pool) };
  const live = !json && process.stderr.isTTY;
  const onProgress = (done: number, total: number) => live && process.stderr.write(`\rre-verified ${done} of ${total} answers`);
  let stored: StoredRun;
  let report: RegradeReport;
  try {
    let isDir = false;
    try {
      isDir = statSync(input).isDirectory();
    } catch {
      // Not there: readInput names the problem.
    }
    if (isDir) stored = await readRunDir(input);
    else {
      const text = await readInput(input, 'run', RESPONSES_CAP);
      const file = parseRunFile(text);
      if (file.ok) stored = { run: file.file.run, attempts: file.file.attempts, prompts: file.file.prompts };
      else {
        const answers = parseAnswerFile(text, tasks, handlerOnlyTask);
        if (answers.items.length === 0) throw new UsageError(`${input} is neither a run file nor a file of answers:\n${formatValidationErrors(file.errors)}`);
        for (const p of answers.problems) process.stderr.write(`${input}: ${p.line ? `line ${p.line}: ` : ''}${p.code} ${p.message}\n`);
        // Answers without grades: the session grades them (nothing stored yet), then nothing is "changed".
        const store = new MemoryStore();
        const session = await AnswersSession.open({ file: answers, source: { format: answers.format, file: basename(input) }, model: basename(input).replace(/\.[^.]*$/, '') }, { ...ports, store });
        const runRecord = session.run;
        const ungraded = await store.listAttempts(runRecord.id);
        stored = { run: runRecord, attempts: ungraded, prompts: [] };
      }
    }
    report = await regradeRun(stored.run, stored.attempts, ports, { onProgress });
    if (live) process.stderr.write('\n');
  } finally {
    await pool.close();
  }

  const out = args.values.get('out');
  if (out) {
    const store = await openRunDir(out);
    try {
      if ((await store.listRuns()).length) throw new UsageError(`${out} already holds a run; choose a new --out`);
      const regraded = new Map(report.attempts.map((a) => [a.id, a]));
      await store.importBundle({
        run: { ...stored.run, provenance: PROVENANCE, updatedAt: Date.now() },
        prompts: stored.prompts,
        attempts: stored.attempts.map((a) => regraded.get(a.id) ?? a),
      });
    } finally {
      await store.close();
    }
  }

  if (json) {
    const { attempts: _all, ...rest } = report;
    process.stdout.write(`${JSON.stringify({ ...rest, verifier: { before: stored.run.provenance.verifier, after: PROVENANCE.verifier }, ...(out ? { out } : {}) })}\n`);
  } else {
    const lines = [
      `run ${report.runId}: ${report.unchanged} of ${report.total} grades unchanged${report.ungraded ? `, ${report.ungraded} answers had no grade and were graded now` : ''} (${(report.ms / 1000).toFixed(1)} s)`,
      `verifier: stored grades ${stored.run.provenance.verifier}, this verifier ${PROVENANCE.verifier}`,
    ];
    for (const c of report.changed) lines.push(`  changed ${c.taskId} sample ${c.sample} round ${c.round}: ${describeGrade(c.before)} (${c.beforeVerifier}) -> ${describeGrade(c.after)} (${c.afterVerifier})`);
    if (out) lines.push(`wrote the re-verified run to ${out}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return report.changed.length ? 1 : 0;
}
