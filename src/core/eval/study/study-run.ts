/**
 * Running a study: its plan (every cell's run choice and run id, made the
 * same way in the CLI and the page, so the same file gives the same runs)
 * and the one job that runs the cells one after another through the run
 * session (docs/research.md). Each cell is a run of its own, resumable like
 * any run; the front end decides where cells are stored and gives their
 * clients one response cache, so a request two cells share (every feedback
 * mode sends the same first prompt) is asked once. Running a study again
 * resumes it: finished cells are read back, unfinished ones continue.
 */
import type { Diagnostic } from '../../diagnostic.ts';
import { canonicalJson, sha256Hex } from '../../hash.ts';
import type { Task } from '../../tasks/task.ts';
import type { RunOutcome } from '../run/runner.ts';
import type { RunRecord, StudyRef } from '../run/run-types.ts';
import { selectTasks } from '../run/run-setup.ts';
import type { ShardSpec } from '../run/shard.ts';
import { type RunChoice, runChoiceOf } from '../session/config.ts';
import type { Grader, SessionPorts } from '../session/ports.ts';
import { type RunHooks, RunSession } from '../session/session.ts';
import { type StudyCell, expandStudy } from './grid.ts';
import { type Study, type StudySource, studyDiagnostic } from './study-file.ts';

/** A cell with the run it is. */
export interface PlannedCell extends StudyCell {
  readonly choice: RunChoice;
  readonly runId: string;
}

export interface StudyPlan {
  readonly study: Study;
  /** 12 hex digits of the hash of the study's grid and settings. */
  readonly id: string;
  /** The selected task ids, in run order. */
  readonly tasks: readonly string[];
  readonly cells: readonly PlannedCell[];
}

/** A study that cannot be planned (its task selection names nothing this build has). */
export class StudyError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
    this.name = 'StudyError';
  }
}

/** The plan of `study` over this build's tasks. */
export async function planStudy(study: Study, tasks: readonly Task[], source?: StudySource): Promise<StudyPlan> {
  let selected: string[];
  try {
    selected = selectTasks(tasks, study.tasks);
  } catch (e) {
    const span = source?.tasksSpan ?? { line: 1, column: 1, endLine: 1, endColumn: 2, offset: 0, endOffset: 1 };
    throw new StudyError([studyDiagnostic('STUDY008', `"tasks": ${(e as Error).message}`, span)]);
  }
  const cells: PlannedCell[] = [];
  for (const cell of expandStudy(study)) {
    const { model, prompt, names, feedback, shots, samples, agent } = cell.levels;
    // The one builder of a run's choice (session/config.ts), as the CLI's run and the Evaluate page use it:
    // the provider's own endpoint when the file names none, and no repair rounds in an agent cell.
    const choice = runChoiceOf({
      provider: model.provider,
      ...(model.baseUrl !== undefined ? { baseUrl: model.baseUrl } : {}),
      model: model.model,
      params: study.params,
      tasks: selected,
      shots,
      n: samples,
      repairRounds: study.repair,
      ...(study.concurrency !== undefined ? { concurrency: study.concurrency } : {}),
      ...(study.gradeConcurrency !== undefined ? { gradeConcurrency: study.gradeConcurrency } : {}),
      grading: study.grading,
      feedback,
      prompt,
      ...(names ? { rename: names } : {}),
      ...(study.shape ? { shape: study.shape } : {}),
      ...(agent ? { agent } : {}),
    });
    cells.push({ ...cell, choice, runId: await RunSession.idOf(choice) });
  }
  // The shape stays in `grid` when there is one: a study without one keeps its id.
  const { description: _d, concurrency: _c, gradeConcurrency: _g, names, renameSeed, modes, ...grid } = study;
  // A study of hv6's names alone keeps the id it had before names were a factor.
  const renamed = names.some((n) => n !== 'hv6') ? { names, renameSeed } : {};
  // Likewise a study whose every cell asks for one answer keeps the id it had before modes were a factor.
  const moded = modes.some((m) => m !== 'answer') ? { modes } : {};
  const id = (await sha256Hex(canonicalJson({ ...grid, ...renamed, ...moded, tasks: selected }))).slice(0, 12);
  return { study, id, tasks: selected, cells };
}

/** A cell's place in its study, as its run records it. */
function studyRef(plan: StudyPlan, cell: StudyCell): StudyRef {
  return { id: plan.id, name: plan.study.name, cell: cell.index, label: cell.label };
}

/** Where a cell's run lives: the front end's store, grader and client for it. */
export interface CellPorts extends SessionPorts {
  /** Called when the cell is done with its ports (a run directory closes its files). */
  readonly close?: () => Promise<void>;
  /** Where the store is, for errors ("runs/x", "this browser"). */
  readonly where?: string;
}

export interface StudyHooks extends Omit<RunHooks, 'onProgress' | 'onAttempt'> {
  /** Run only this shard of every cell (docs/scale.md). */
  readonly shard?: ShardSpec;
  /** A cell's session opened: `created` false when it continues a stored run. */
  readonly onCellStart?: (cell: PlannedCell, created: boolean) => void;
  readonly onProgress?: (cell: PlannedCell, progress: Parameters<NonNullable<RunHooks['onProgress']>>[0]) => void;
  readonly onCellEnd?: (cell: PlannedCell, outcome: RunOutcome) => void;
}

export interface CellOutcome {
  readonly cell: PlannedCell;
  readonly run: RunRecord;
  readonly outcome: RunOutcome;
}

/**
 * `done` when every cell is done; `incomplete` when some cell ended
 * incomplete (resume the study to retry); `cancelled` or `failed` when a cell
 * was, which stops the study there (a fatal provider error would fail every
 * cell after it too).
 */
export type StudyStatus = 'done' | 'incomplete' | 'cancelled' | 'failed';

export interface StudyOutcome {
  readonly status: StudyStatus;
  readonly cells: readonly CellOutcome[];
}

/**
 * `grader` with one memo of grades for the whole study: cells send the same
 * answers to the same tasks again and again (every feedback mode's first
 * answers, a prompt variant the model answers alike), and a grade depends
 * only on the task, the answer and the grading options. A worker's own memo
 * of verdicts (grade/grade-memo.ts) sees only what that worker graded; this
 * one is shared by every worker. Throws and `internal` grades are not kept.
 */
function sharedGrades(grader: Grader, memo = new Map<string, ReturnType<Grader>>()): Grader {
  return (task, response, options) => {
    const key = JSON.stringify([task.id, task.hash, response, options.timeoutMs ?? null, options.strict ?? null, options.variants?.map((v) => `${v.id}:${v.hash}`) ?? null]);
    const hit = memo.get(key);
    if (hit) return hit;
    const graded = grader(task, response, options);
    memo.set(key, graded);
    graded.then((g) => g.category === 'internal' && memo.delete(key), () => memo.delete(key));
    return graded;
  };
}

/** Runs (or continues) every cell of `plan`, in order, each through its own run session. */
export async function runStudy(plan: StudyPlan, portsFor: (cell: PlannedCell) => Promise<CellPorts>, hooks: StudyHooks = {}): Promise<StudyOutcome> {
  const cells: CellOutcome[] = [];
  let status: StudyStatus = 'done';
  const grades = new Map<string, ReturnType<Grader>>();
  for (const cell of plan.cells) {
    if (hooks.signal?.aborted || hooks.control?.signal.aborted) return { status: 'cancelled', cells };
    const given = await portsFor(cell);
    const ports: CellPorts = { ...given, grader: sharedGrades(given.grader, grades) };
    try {
      const session = await RunSession.open(cell.choice, ports, { name: `${plan.study.name}: ${cell.label}`, shard: hooks.shard, where: ports.where });
      await markCell(ports, session.run, studyRef(plan, cell));
      hooks.onCellStart?.(cell, session.created);
      const outcome = await session.execute({
        control: hooks.control,
        signal: hooks.signal,
        budget: hooks.budget,
        prices: hooks.prices,
        onProgress: (p) => hooks.onProgress?.(cell, p),
      });
      hooks.onCellEnd?.(cell, outcome);
      cells.push({ cell, run: (await ports.store.getRun(session.id)) ?? session.run, outcome });
      if (outcome.status === 'cancelled' || outcome.status === 'failed') return { status: outcome.status, cells };
      if (outcome.status === 'incomplete') status = 'incomplete';
    } finally {
      await ports.close?.();
    }
  }
  return { status, cells };
}

/** Records on the run that it is this cell of the study (once). */
async function markCell(ports: SessionPorts, run: RunRecord, ref: StudyRef): Promise<void> {
  const stored = (await ports.store.getRun(run.id)) ?? run;
  if (stored.studies?.some((s) => s.id === ref.id && s.cell === ref.cell)) return;
  await ports.store.putRun({ ...stored, studies: [...(stored.studies ?? []), ref] });
}
