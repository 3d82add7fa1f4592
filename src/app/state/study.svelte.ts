/**
 * Studies in the page (docs/research.md): running a study file as the CLI's
 * `osvlab study` does (the same plan, so the same runs and the same table),
 * and a stored study's report, rebuilt from the runs that name it. Every
 * cell is a run in this browser's store; the response cache is the store's
 * own, shared by every run.
 */
import { diagnosticText } from '../../core/diagnostic-text.ts';
import { RunControl } from '../../core/eval/run/run-control.ts';
import type { RunProgress } from '../../core/eval/run/runner.ts';
import type { RunRecord, StudyRef } from '../../core/eval/run/run-types.ts';
import { type StudyNames, parseStudy, withNames, withShape } from '../../core/eval/study/study-file.ts';
import type { ShapeStyle } from '../../core/shape/choice.ts';
import { type CellRun, type StudyReport, studyReport } from '../../core/eval/study/study-report.ts';
import { type StudyPlan, StudyError, planStudy, runStudy } from '../../core/eval/study/study-run.ts';
import type { ProviderKind } from '../../core/llm/types.ts';
import { pagePorts, repository } from './page-ports.ts';
import { taskFacts } from './runs.svelte.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import { type Destination, destinationOf } from './send-approval.svelte.ts';

/** A study as the Runs page lists it: the runs that are its cells. */
export interface StudyGroup {
  readonly id: string;
  readonly name: string;
  readonly cells: readonly { readonly ref: StudyRef; readonly run: RunRecord }[];
}

/** The studies the runs are cells of, in the order their first run appears. */
export function studyGroups(runs: readonly RunRecord[]): StudyGroup[] {
  const groups = new Map<string, { id: string; name: string; cells: { ref: StudyRef; run: RunRecord }[] }>();
  for (const run of runs) {
    for (const ref of run.studies ?? []) {
      let g = groups.get(ref.id);
      if (!g) groups.set(ref.id, (g = { id: ref.id, name: ref.name, cells: [] }));
      g.cells.push({ ref, run });
    }
  }
  for (const g of groups.values()) g.cells.sort((a, b) => a.ref.cell - b.ref.cell);
  return [...groups.values()];
}

/** The report of stored study `id`, from the runs in this browser that are its cells. */
export async function loadStudyReport(id: string): Promise<StudyReport | undefined> {
  await taskCatalog.load();
  const store = repository();
  const group = studyGroups(await store.listRuns()).find((g) => g.id === id);
  if (!group) return undefined;
  const cells: CellRun[] = [];
  for (const { ref, run } of group.cells) cells.push({ index: ref.cell, label: ref.label, run, attempts: await store.listAttempts(run.id) });
  const facts = [...new Set(group.cells.flatMap((c) => c.run.config.tasks))].map(taskFacts);
  return studyReport({ name: group.name, id }, cells, facts);
}

export type StudyPhase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly cell: number; readonly cells: number; readonly label: string }
  | { readonly kind: 'finished'; readonly status: string; readonly message?: string };

export class StudyState {
  /** The study file's text and name, as loaded or typed. */
  text = $state('');
  fileName = $state('study.json');
  /** The file's coded problems, as the terminal shows them (with their line and column). */
  problems = $state.raw<readonly string[]>([]);
  phase = $state.raw<StudyPhase>({ kind: 'idle' });
  progress = $state.raw<RunProgress | undefined>(undefined);
  plan = $state.raw<StudyPlan | undefined>(undefined);
  report = $state.raw<StudyReport | undefined>(undefined);
  /** The names every cell is shown, as `osvlab study --rename` sets them: '' keeps the file's own `names` (docs/rename.md). */
  names = $state<StudyNames | ''>('');
  renameSeed = $state<number | null>(1);
  /** The order of every cell's code, as `osvlab study --shape` sets it: '' keeps the file's own `shape` (docs/shape.md). */
  shapeStyle = $state<ShapeStyle | ''>('');
  shapeSeed = $state<number | null>(1);
  /** Why the last Run sent nothing (the user said no to a host the file names). */
  notice = $state('');
  private control?: RunControl;

  /**
   * @param keyFor the key for a provider at a base URL: the page's own
   * settings hold them (in memory, or remembered on this device), each for
   * the origin it was entered for; none for any other origin.
   * @param baseUrlFor the base URL the page's settings give a provider, used
   * for a model the file gives no "baseUrl" (undefined: the file must).
   * @param confirm asks the user before requests go to hosts a study file
   * names (docs/providers.md, "Keys in the browser"); false: send nothing.
   */
  constructor(
    private readonly keyFor: (kind: ProviderKind, baseUrl: string) => string | undefined,
    private readonly baseUrlFor: (kind: ProviderKind) => string | undefined = () => undefined,
    private readonly confirm: (what: string, to: readonly Destination[]) => Promise<boolean> = async () => true,
  ) {}

  async load(file: File): Promise<void> {
    this.text = await file.text();
    this.fileName = file.name;
    this.problems = [];
  }

  /** Runs (or continues) the study in the text, cell by cell, then shows its report. */
  async run(): Promise<void> {
    this.problems = [];
    this.notice = '';
    const parsed = parseStudy(this.text, { baseUrlFor: this.baseUrlFor });
    if (!parsed.ok) {
      this.problems = parsed.diagnostics.map((d) => diagnosticText(d, { source: this.text, file: this.fileName }));
      return;
    }
    await taskCatalog.load();
    const seed = this.renameSeed;
    if (this.names && this.names !== 'hv6' && !(typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0)) {
      this.problems = ['the names seed is a whole number, 0 or more'];
      return;
    }
    const shapeSeed = this.shapeSeed;
    if (this.shapeStyle && !(typeof shapeSeed === 'number' && Number.isSafeInteger(shapeSeed) && shapeSeed >= 0)) {
      this.problems = ['the order seed is a whole number, 0 or more'];
      return;
    }
    const renamed = this.names ? withNames(parsed.study, this.names, seed ?? undefined) : parsed.study;
    const study = this.shapeStyle ? withShape(renamed, { style: this.shapeStyle, seed: shapeSeed! }) : renamed;
    let plan: StudyPlan;
    try {
      plan = await planStudy(study, taskCatalog.tasks, parsed.source);
    } catch (e) {
      if (!(e instanceof StudyError)) throw e;
      this.problems = e.diagnostics.map((d) => diagnosticText(d, { source: this.text, file: this.fileName }));
      return;
    }
    const hosts = plan.cells.map((c) => destinationOf(c.choice.provider, c.choice.baseUrl, this.keyFor)).filter((d) => d !== undefined);
    if (!(await this.confirm(`Run the study ${plan.study.name}`, hosts))) {
      this.notice = `The study was not run: nothing was sent to ${[...new Set(hosts.map((h) => h.origin))].join(', ')}.`;
      return;
    }
    this.plan = plan;
    this.report = undefined;
    this.control = new RunControl();
    const ports = await pagePorts(this.keyFor);
    try {
      const outcome = await runStudy(
        plan,
        async (cell) => ({ ...ports, where: `this browser (${cell.label})` }),
        {
          control: this.control,
          onCellStart: (cell) => (this.phase = { kind: 'running', cell: cell.index + 1, cells: plan.cells.length, label: cell.label }),
          onProgress: (_cell, p) => (this.progress = p),
        },
      );
      const failed = outcome.cells.find((c) => c.outcome.status === 'failed');
      this.phase = { kind: 'finished', status: outcome.status, ...(failed?.outcome.error ? { message: `${failed.outcome.error.code}: ${failed.outcome.error.message}` } : {}) };
    } catch (e) {
      this.phase = { kind: 'finished', status: 'failed', message: e instanceof Error ? e.message : String(e) };
    }
    this.report = await loadStudyReport(plan.id);
  }

  /** Stops the study after the answers in flight; running it again resumes. */
  cancel(): void {
    this.control?.cancel();
  }
}
