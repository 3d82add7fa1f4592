/**
 * The Runs pages: stored benchmark runs, one run's metrics and attempts,
 * two runs side by side, and export/import of run files. Storage is the
 * harness's repository (src/store/), the metrics are core/bench's.
 */
import type { TaskRef } from '../../core/bench/export.ts';
import { type RunMetrics, type TaskFacts, computeMetrics } from '../../core/bench/metrics.ts';
import type { AttemptRecord, RunRecord } from '../../core/bench/run-types.ts';
import { DexieRepository } from '../../store/dexie.ts';
import { exportStoredRun, importRunFile } from '../../store/transfer.ts';
import { taskCatalog } from './taskdb.svelte.ts';

let repo: DexieRepository | undefined;
/** The browser's run store, opened on first use. */
export function repository(): DexieRepository {
  repo ??= new DexieRepository();
  return repo;
}

/** What the metrics need about a task; runs imported from elsewhere may name tasks this build lacks. */
export function taskFacts(id: string): TaskRef {
  const t = taskCatalog.find(id);
  if (t) return { id: t.id, handler: t.handler, bug_classes: t.bug_classes, bug_count: t.bug_count, hash: t.hash };
  return { id, handler: id.replace(/-v\d+$/, ''), bug_classes: [], bug_count: 0, hash: '' };
}

export interface LoadedRun {
  readonly run: RunRecord;
  readonly attempts: readonly AttemptRecord[];
  readonly metrics: RunMetrics;
}

export async function loadRun(id: string): Promise<LoadedRun | undefined> {
  const r = repository();
  await taskCatalog.load();
  const run = await r.getRun(id);
  if (!run) return undefined;
  const attempts = await r.listAttempts(id);
  const facts: TaskFacts[] = run.config.tasks.map(taskFacts);
  return { run, attempts, metrics: computeMetrics(facts, attempts) };
}

export class RunsState {
  runs = $state.raw<readonly RunRecord[]>([]);
  selected = $state.raw<LoadedRun | undefined>(undefined);
  compareWith = $state.raw<LoadedRun | undefined>(undefined);
  message = $state('');
  error = $state('');
  busy = $state(false);

  async refresh(): Promise<void> {
    this.runs = [...(await repository().listRuns())].reverse();
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

  /** Imports a run file; nothing is written when it is invalid or its run exists. */
  async importText(text: string): Promise<string | undefined> {
    this.error = '';
    this.message = '';
    const r = await importRunFile(repository(), text);
    if (!r.ok) {
      this.error = r.message;
      return undefined;
    }
    this.message = `Imported run ${r.runId} with ${r.attempts} attempts.`;
    await this.refresh();
    return r.runId;
  }

  async remove(id: string): Promise<void> {
    await repository().deleteRun(id);
    if (this.selected?.run.id === id) this.selected = undefined;
    await this.refresh();
  }
}
