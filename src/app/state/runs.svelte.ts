/**
 * The Runs pages: stored benchmark runs, one run's metrics and attempts,
 * two runs side by side, and export/import of run files. Storage is the
 * harness's repository (src/store/), the metrics are core/eval's.
 */
import { type BenchmarkFile, parseBenchmarkFile } from '../../core/eval/files/benchmark-file.ts';
import type { TaskRef } from '../../core/eval/files/run-file.ts';
import { handlerOnlyTask } from '../../core/eval/grade/grade.ts';
import { type RunMetrics, type TaskFacts, computeMetrics } from '../../core/eval/stats/metrics.ts';
import { looksLikeOsvbenchResults } from '../../core/eval/files/osvbench.ts';
import { parseAnswerFile } from '../../core/eval/files/responses.ts';
import type { AttemptRecord, RunRecord } from '../../core/eval/run/run-types.ts';
import { AnswersSession } from '../../core/eval/session/answers.ts';
import { type RegradeReport, regradeRun } from '../../core/eval/session/regrade.ts';
import { taskFactsOf } from '../../core/eval/session/task-facts.ts';
import { exportStoredRun, importRunFile } from '../../store/transfer.ts';
import { pagePorts, repository } from './page-ports.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import { verifier } from './verifier.svelte.ts';

/** What the metrics need about a task; runs imported from elsewhere may name tasks this build lacks. */
export function taskFacts(id: string): TaskRef {
  return taskFactsOf(id, (x) => taskCatalog.find(x));
}

export interface LoadedRun {
  readonly run: RunRecord;
  readonly attempts: readonly AttemptRecord[];
  readonly metrics: RunMetrics;
}

async function loadRun(id: string): Promise<LoadedRun | undefined> {
  const r = repository();
  await taskCatalog.load();
  const run = await r.getRun(id);
  if (!run) return undefined;
  const attempts = await r.listAttempts(id);
  const facts: TaskFacts[] = run.config.tasks.map(taskFacts);
  return { run, attempts, metrics: computeMetrics(facts, attempts, { n: run.source ? undefined : run.config.n, rounds: run.config.repairRounds }) };
}

/** Re-verify on a run's page: every stored answer graded again with this verifier (docs/osvbench.md). */
export type Reverify =
  | { readonly kind: 'running'; readonly runId: string; readonly done: number; readonly total: number }
  | { readonly kind: 'done'; readonly runId: string; readonly report: RegradeReport }
  | { readonly kind: 'failed'; readonly runId: string; readonly message: string };

/** The settings key of the benchmark file the Runs page counts bug classes by. */
const BENCHMARK_SETTING = 'osvbench.benchmark';

/** A benchmark file chosen on the Runs page (as `report --benchmark FILE`), kept in this browser. */
export interface ChosenBenchmark {
  readonly name: string;
  readonly file: BenchmarkFile;
}

export class RunsState {
  runs = $state.raw<readonly RunRecord[]>([]);
  selected = $state.raw<LoadedRun | undefined>(undefined);
  compareWith = $state.raw<LoadedRun | undefined>(undefined);
  message = $state('');
  error = $state('');
  busy = $state(false);
  /** The grading of an imported answers file, while it runs. */
  grading: Promise<void> | undefined;
  reverify = $state.raw<Reverify | undefined>(undefined);
  benchmark = $state.raw<ChosenBenchmark | undefined>(undefined);

  async refresh(): Promise<void> {
    this.runs = [...(await repository().listRuns())].reverse();
    this.benchmark = await repository().getSetting<ChosenBenchmark>(BENCHMARK_SETTING);
  }

  /**
   * Re-grades every stored answer of run `id` with this verifier in the
   * pool (the core of `osvlab regrade`); nothing is written. The result
   * says how many grades are unchanged and lists each changed one.
   */
  async reverifyRun(id: string): Promise<void> {
    const run = await repository().getRun(id);
    if (!run) return;
    const attempts = await repository().listAttempts(id);
    this.reverify = { kind: 'running', runId: id, done: 0, total: attempts.filter((a) => a.response).length };
    void verifier.warm();
    try {
      const report = await regradeRun(run, attempts, await pagePorts(), { onProgress: (done, total) => (this.reverify = { kind: 'running', runId: id, done, total }) });
      this.reverify = { kind: 'done', runId: id, report };
    } catch (e) {
      this.reverify = { kind: 'failed', runId: id, message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Reads the benchmark file the class table counts by and keeps it in this browser; its warnings are shown. */
  async chooseBenchmark(text: string, name: string): Promise<void> {
    this.error = '';
    this.message = '';
    let file: BenchmarkFile;
    try {
      file = parseBenchmarkFile(text);
    } catch (e) {
      this.error = `${name}: ${e instanceof Error ? e.message : String(e)}`;
      return;
    }
    const chosen = { name, file };
    await repository().putSetting(BENCHMARK_SETTING, chosen);
    this.benchmark = chosen;
    const warnings = file.warnings.map((w) => `${w.line ? `line ${w.line}: ` : ''}${w.code} ${w.message}`);
    this.message = `Bug classes are counted by ${name} (${file.entries.length} tasks).${warnings.length ? ` Warnings: ${warnings.join('; ')}` : ''}`;
  }

  async forgetBenchmark(): Promise<void> {
    await repository().putSetting(BENCHMARK_SETTING, undefined);
    this.benchmark = undefined;
  }

  async open(id: string | undefined): Promise<void> {
    this.selected = id ? await loadRun(id) : undefined;
  }

  async compare(id: string | undefined): Promise<void> {
    this.compareWith = id ? await loadRun(id) : undefined;
  }

  /** The run file of `id`, as text. */
  async exportText(id: string): Promise<string> {
    await taskCatalog.load();
    const run = await repository().getRun(id);
    if (!run) throw new Error(`no run "${id}"`);
    const file = await exportStoredRun(repository(), id, run.config.tasks.map(taskFacts));
    return JSON.stringify(file, null, 1);
  }

  /** Downloads the run file of `id`. */
  async download(id: string): Promise<void> {
    const text = await this.exportText(id);
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `osvlab-run-${id}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** Imports a run file, or OSVBench's results file (graded here); nothing is written when it is invalid or its run exists. */
  async importText(text: string, fileName = 'results.json'): Promise<string | undefined> {
    this.error = '';
    this.message = '';
    if (looksLikeOsvbenchResults(text)) return this.importAnswers(text, fileName);
    const r = await importRunFile(repository(), text);
    if (!r.ok) {
      this.error = r.message;
      return undefined;
    }
    this.message = `Imported run ${r.runId} with ${r.attempts} attempts.`;
    await this.refresh();
    return r.runId;
  }

  /**
   * OSVBench's results file as a run: every answer stored at once (ungraded),
   * then graded in the verifier pool, each grade stored as it comes.
   */
  private async importAnswers(text: string, fileName: string): Promise<string | undefined> {
    await taskCatalog.load();
    const parsed = parseAnswerFile(text, taskCatalog.tasks, handlerOnlyTask);
    const problems = parsed.problems.map((p) => `${p.line ? `line ${p.line}: ` : ''}${p.code} ${p.message}`);
    if (parsed.items.length === 0) {
      this.error = `No answer to grade in ${fileName}.${problems.length ? `\n${problems.join('\n')}` : ''}`;
      return undefined;
    }
    let session: AnswersSession;
    try {
      const choice = { file: parsed, source: { format: parsed.format, file: fileName }, model: fileName.replace(/\.[^.]*$/, ''), name: fileName };
      session = await AnswersSession.open(choice, await pagePorts(), 'this browser');
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      return undefined;
    }
    await this.refresh();
    this.grading = this.gradeImported(session, problems, fileName);
    return session.id;
  }

  /** Grades an imported run's answers, each grade stored as it comes; the run's status follows. */
  private async gradeImported(session: AnswersSession, problems: readonly string[], fileName: string): Promise<void> {
    const id = session.id;
    this.busy = true;
    void verifier.warm();
    try {
      await session.gradeAll({
        onGraded: (_r, done, total) => {
          this.message = `Graded ${done} of ${total} answers from ${fileName}...`;
          if (this.selected?.run.id === id) void this.open(id);
        },
      });
    } finally {
      this.busy = false;
    }
    this.message = `Imported and graded ${session.size} answers from ${fileName} (OSVBench's results format) as run ${id}.${problems.length ? ` Skipped ${problems.length}: ${problems.join('; ')}` : ''}`;
    await this.refresh();
    if (this.selected?.run.id === id) await this.open(id);
  }

  async remove(id: string): Promise<void> {
    await repository().deleteRun(id);
    if (this.selected?.run.id === id) this.selected = undefined;
    await this.refresh();
  }
}
