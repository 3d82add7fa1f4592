/**
 * `osvlab study FILE.json` (options: ../declarations.ts): runs a study's grid (docs/research.md) as one job, one run per cell, and
 * prints the study report. The study directory holds `study.json` (the
 * file and its plan), `cache.jsonl` (the response cache every cell shares,
 * so a request two cells send alike is asked once) and `cells/NN-LABEL/`,
 * one run directory per cell (`osvlab report` and `compare` read them as any
 * run). Running the same command again resumes: finished cells are read
 * back, an unfinished one continues where it stopped. `--shard K/N` runs
 * shard K of every cell (into DIR-shard-K-of-N); `--merge DIR...` puts the
 * shards of every cell together into the study directory; `--report` only
 * prints the report of what the study directory holds. Keys come from the
 * environment, as for `run`. Exit 0 done, 3 cancelled or incomplete (rerun
 * to resume), 4 failed or usage error, 2 a bad study file.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { diagnosticText } from '../../core/diagnostic-text.ts';
import type { Diagnostic } from '../../core/diagnostic.ts';
import { MergeError, mergeShards } from '../../core/eval/run/shard-merge.ts';
import { RUN_DEFAULTS } from '../../core/eval/session/config.ts';
import { taskFactsOf } from '../../core/eval/session/task-facts.ts';
import type { Determinism } from '../../core/eval/stats/determinism.ts';
import { formatShard } from '../../core/eval/run/shard.ts';
import { type CellRun, agentTable, studyReport, studyReportText, cellTable, pairTable } from '../../core/eval/study/study-report.ts';
import { type PlannedCell, type StudyPlan, StudyError, planStudy, runStudy } from '../../core/eval/study/study-run.ts';
import { parseStudy, withNames, withShape } from '../../core/eval/study/study-file.ts';
import { KEY_ENV, createProvider, keyFromEnv } from '../../core/llm/provider.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import type { Task } from '../../core/tasks/task.ts';
import { JsonlRepository } from '../../store/jsonl.ts';
import { WRITE_FLAGS, makeDir, readRunFile, writeError } from '../../store/run-dir-file.ts';
import { lockRunDir } from '../../store/run-dir-lock.ts';
import { UsageError, intOption, parseArgs } from '../args.ts';
import { declaredOptions } from '../declarations.ts';
import { sessionPorts, withGrading } from '../session-ports.ts';
import { groupByMeaning } from '../meaning-groups.ts';
import { progressReporter } from '../progress.ts';
import { openRunDir, parseRunScale, shardSuffix, usageErrors } from '../run-scale.ts';
import { readShard } from './merge.ts';
import { lensOption } from '../lens-option.ts';
import { SHAPE_LENS } from '../../core/shape/choice.ts';
import { RENAME_LENS } from '../../core/rename/choice.ts';

/** A cell's run directory inside the study directory: its number and its label, readable in `ls`. */
function cellDir(studyDir: string, cell: PlannedCell): string {
  const slug = cell.label.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '');
  return join(studyDir, 'cells', `${String(cell.index + 1).padStart(2, '0')}-${slug}`);
}

function printStudyErrors(diagnostics: readonly Diagnostic[], source: string, file: string): void {
  for (const d of diagnostics) process.stderr.write(`${diagnosticText(d, { source, file })}\n`);
}

/** The cell runs the study directory holds (cells not started yet are left out). */
async function storedCells(plan: StudyPlan, dir: string): Promise<CellRun[]> {
  const out: CellRun[] = [];
  for (const cell of plan.cells) {
    const d = cellDir(dir, cell);
    if (!existsSync(join(d, 'run.json'))) continue;
    const store = await JsonlRepository.open(d, { create: false, cachePath: join(dir, 'cache.jsonl') });
    try {
      const run = await store.getRun(cell.runId);
      if (run) out.push({ index: cell.index, label: cell.label, run, attempts: await store.listAttempts(run.id) });
    } finally {
      await store.close();
    }
  }
  return out;
}

async function printStudyReport(plan: StudyPlan, dir: string, tasks: readonly Task[], json: boolean): Promise<void> {
  const cells = await storedCells(plan, dir);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  // Each cell's first answers grouped by meaning (docs/research.md, "Determinism"), as `report` groups a run.
  const determinism = new Map<number, Determinism>();
  for (const c of cells) determinism.set(c.index, await groupByMeaning(c.attempts, (id) => taskFactsOf(id, (x) => byId.get(x)).handler));
  const report = studyReport({ name: plan.study.name, id: plan.id }, cells, tasks, { determinism });
  const agent = agentTable(report);
  if (json) {
    process.stdout.write(`${JSON.stringify({ study: { name: plan.study.name, id: plan.id, dir, cells: plan.cells.length }, report, tables: { cells: cellTable(report), pairs: pairTable(report), ...(agent ? { agent } : {}) } })}\n`);
    return;
  }
  const missing = plan.cells.length - cells.length;
  process.stdout.write(studyReportText(report) + (missing ? `(${missing} of ${plan.cells.length} cells have no run yet)\n` : ''));
}

/** Every model's key from the environment, checked before anything starts. */
function clientsFor(plan: StudyPlan, timeoutMs: number): Map<string, ReturnType<typeof createProvider>> {
  const providers = new Map<string, ReturnType<typeof createProvider>>();
  for (const cell of plan.cells) {
    const { provider, baseUrl } = cell.choice;
    const key = `${provider} ${baseUrl}`;
    if (providers.has(key)) continue;
    const apiKey = keyFromEnv(provider, baseUrl, process.env);
    if (!apiKey && provider !== 'openai-compatible') {
      const [general, ...own] = KEY_ENV[provider];
      throw new UsageError(`no API key for ${provider}: set ${general}${own.length ? ` or ${own.join(' or ')}` : ''} in the environment (keys are never taken from flags or study files)`);
    }
    providers.set(key, createProvider({ kind: provider, baseUrl, apiKey, timeoutMs }));
  }
  return providers;
}

/** Merges the shard study directories cell by cell into `dir`. */
async function mergeStudy(plan: StudyPlan, shardDirs: readonly string[], dir: string): Promise<void> {
  for (const cell of plan.cells) {
    const shards = [];
    for (const s of shardDirs) {
      const d = cellDir(s, cell);
      if (existsSync(join(d, 'run.json'))) shards.push(await readShard(d));
    }
    if (shards.length === 0) continue;
    let merged;
    try {
      merged = mergeShards(shards.map((s) => s.input));
    } catch (e) {
      if (e instanceof MergeError) throw new UsageError(`cell ${cell.index + 1} (${cell.label}): ${e.code}: ${e.message}`);
      throw e;
    }
    const out = cellDir(dir, cell);
    if (existsSync(join(out, 'run.json'))) throw new UsageError(`${out} already holds a run; merge into a new study directory (--out)`);
    const store = await usageErrors(() => openRunDir(out, { cachePath: join(dir, 'cache.jsonl') }));
    try {
      await store.importBundle(merged);
      const seen = new Set<string>();
      for (const c of shards.flatMap((s) => s.cache)) {
        if (seen.has(c.key) || (await store.getCached(c.key))) continue;
        seen.add(c.key);
        await store.putCached(c);
      }
    } finally {
      await store.close();
    }
    process.stderr.write(`cell ${cell.index + 1} (${cell.label}): merged ${shards.length} shards of run ${merged.run.id}, status ${merged.run.status}\n`);
  }
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, declaredOptions('study'));
  const [file, ...rest] = args.positionals;
  if (!file) throw new UsageError('which study file? e.g. osvlab study studies/feedback-ablation.json');
  if (!args.flags.has('merge') && rest.length) throw new UsageError(`unexpected argument '${rest[0]}'`);
  if (!existsSync(file)) throw new UsageError(`${file}: no such study file`);
  const text = await readFile(file, 'utf8');
  const parsed = parseStudy(text);
  if (!parsed.ok) {
    printStudyErrors(parsed.diagnostics, text, file);
    return 2;
  }
  const tasks = await loadTasks();
  const rename = lensOption(args, RENAME_LENS);
  // --rename makes every cell renamed: the study of the file's grid in those names, a study of its own.
  const renamed = rename ? withNames(parsed.study, rename.style, rename.seed) : parsed.study;
  // --shape shows every cell's code in a shape (docs/shape.md), in place of the file's: a study of its own too.
  const shape = lensOption(args, SHAPE_LENS);
  const study = shape ? withShape(renamed, shape) : renamed;
  let plan: StudyPlan;
  try {
    plan = await planStudy(study, tasks, parsed.source);
  } catch (e) {
    if (!(e instanceof StudyError)) throw e;
    printStudyErrors(e.diagnostics, text, file);
    return 2;
  }
  const scale = parseRunScale(args);
  const base = args.values.get('out') ?? join('.osvlab', 'studies', `${plan.study.name.replace(/[^\w.-]+/g, '_')}-${plan.id}`);
  const dir = `${base}${shardSuffix(scale)}`;
  const json = args.flags.has('json');

  if (args.flags.has('report')) {
    if (!existsSync(join(dir, 'study.json'))) throw new UsageError(`${dir} holds no study (no study.json); run it first, or give its --out`);
    await printStudyReport(plan, dir, tasks, json);
    return 0;
  }
  if (args.flags.has('merge')) {
    if (!rest.length) throw new UsageError('which shard study directories? e.g. osvlab study FILE --merge DIR-shard-1-of-2 DIR-shard-2-of-2');
    if (scale.shard) throw new UsageError('--merge puts shards together: give the shard directories, not --shard');
    const lock = await usageErrors(async () => (makeDir(dir), lockRunDir(dir)));
    try {
      await writeStudyFile(dir, plan, text, file);
      await mergeStudy(plan, rest, dir);
    } finally {
      lock.release();
    }
    await printStudyReport(plan, dir, tasks, json);
    return 0;
  }

  const providers = clientsFor(plan, intOption(args, 'request-timeout'));
  // One study process per study directory: its cells share the directory's response cache.
  const lock = await usageErrors(async () => (makeDir(dir), lockRunDir(dir)));
  try {
    await writeStudyFile(dir, plan, text, file);
  } catch (e) {
    lock.release();
    throw e;
  }
  process.stderr.write(`study ${plan.study.name} (${plan.id}): ${plan.cells.length} cells, ${plan.tasks.length} tasks${scale.shard ? `, shard ${formatShard(scale.shard)}` : ''}, in ${dir}\n`);

  const workers = Math.max(1, ...plan.cells.map((c) => c.choice.gradeConcurrency ?? RUN_DEFAULTS.gradeConcurrency));
  const stopping = 'stopping: answers already received are kept; rerun the same command to resume the study';
  let bar = progressReporter();
  try {
    return await withGrading({ workers, stopping }, async ({ grader, runner, control }) => {
      const outcome = await usageErrors(() =>
        runStudy(
          plan,
          async (cell) => {
            const where = cellDir(dir, cell);
            const store = await openRunDir(where, { cachePath: join(dir, 'cache.jsonl') });
            const provider = providers.get(`${cell.choice.provider} ${cell.choice.baseUrl}`)!;
            return { ...sessionPorts(tasks, store, { grader, runner }, { provider, cache: store }), close: () => store.close(), where };
          },
          {
            control,
            shard: scale.shard,
            onCellStart: (cell, created) => {
              process.stderr.write(`cell ${cell.index + 1}/${plan.cells.length} ${cell.label}: ${created ? 'new' : 'resuming'} run ${cell.runId} in ${cellDir(dir, cell)}\n`);
              bar = progressReporter();
            },
            onProgress: (_cell, p) => bar.update(p),
            onCellEnd: (_cell, o) => {
              bar.done();
              for (const g of o.gradeErrors) process.stderr.write(`grading error on ${g.attemptId}: ${g.message}\n`);
              if (o.status !== 'done') process.stderr.write(`cell ended ${o.status}${o.error ? `: ${o.error.code} ${o.error.message}` : ''}\n`);
            },
          },
        ),
      );
      await printStudyReport(plan, dir, tasks, json);
      if (outcome.status !== 'done') process.stderr.write(`study ${outcome.status}: rerun the same command to resume it\n`);
      return outcome.status === 'done' ? 0 : outcome.status === 'failed' ? 4 : 3;
    });
  } finally {
    lock.release();
  }
}

/** The study file and its plan, written once into the study directory (a later run checks it is the same study). */
async function writeStudyFile(dir: string, plan: StudyPlan, text: string, file: string): Promise<void> {
  const path = join(dir, 'study.json');
  // A file of the study directory, read and written as a run directory's files are: never through a link.
  const had = readRunFile(path);
  if (had) {
    let stored: { id?: string } | null;
    try {
      stored = JSON.parse(had.toString('utf8')) as { id?: string } | null;
    } catch (e) {
      throw new UsageError(`RUNDIR002 ${path} is damaged: not valid JSON (${(e as Error).message})`);
    }
    if (stored?.id !== plan.id) throw new UsageError(`${dir} holds another study (${stored?.id ?? 'unknown'}), not ${plan.id}; choose another --out`);
    return;
  }
  const cells = plan.cells.map((c) => ({ cell: c.index + 1, label: c.label, run: c.runId, dir: basename(cellDir(dir, c)) }));
  await writeFile(path, `${JSON.stringify({ id: plan.id, name: plan.study.name, file: basename(file), tasks: plan.tasks.length, cells, study: JSON.parse(text) }, null, 2)}\n`, { encoding: 'utf8', flag: WRITE_FLAGS }).catch((e: unknown) => {
    throw writeError(path, e);
  });
}
