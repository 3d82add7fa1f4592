/**
 * Re-verify: every stored answer of a run graded again with this verifier,
 * with the run's own grading policy (time limit, strict, matrix, extract),
 * and compared with the grade it was stored with. A grade is unchanged when
 * its category, strict and bug-following flags and matrix are; repair
 * rounds are not replayed (a changed first grade is reported, the rounds
 * after it stay as they were). In an agent run the tool results of every
 * trajectory are derived too, so they are computed again and a trajectory
 * whose stored results (a verdict's category, an error's code) this
 * verifier no longer gives is flagged; the stored turns are kept as the
 * model saw them.
 */
import { PROVENANCE } from '../../version.ts';
import { handlerOnlyTask } from '../grade/grade.ts';
import type { GradeResult } from '../grade/grade-types.ts';
import type { AttemptRecord, RunRecord } from '../run/run-types.ts';
import { canonicalJson } from '../../hash.ts';
import { gradeClosure, neverThrows } from './grading.ts';
import type { SessionPorts } from './ports.ts';
import { handlerOfTaskId } from './task-facts.ts';
import { agentDeps } from './agent.ts';

/** What a grade says, for comparing two of them. */
export interface GradeSummary {
  readonly category: GradeResult['category'];
  readonly strict?: boolean;
  readonly bugFollowing?: boolean;
  readonly matrix?: GradeResult['matrix'];
}

export interface ChangedGrade {
  readonly attemptId: string;
  readonly taskId: string;
  readonly sample: number;
  readonly round: number;
  readonly before: GradeSummary;
  readonly after: GradeSummary;
  /** The verifier the stored grade came from (the run's provenance), and this one. */
  readonly beforeVerifier: string;
  readonly afterVerifier: string;
}

export interface RegradeReport {
  readonly runId: string;
  /** Answers re-graded (attempts with an answer and a stored grade). */
  readonly total: number;
  readonly unchanged: number;
  readonly changed: readonly ChangedGrade[];
  /** Attempts with an answer that had no grade: graded now, nothing to compare. */
  readonly ungraded: number;
  /** Every re-graded attempt with its new grade (for writing a re-verified run). */
  readonly attempts: readonly AttemptRecord[];
  /** The verifier of the stored grades (the run's provenance), and this one. */
  readonly verifier: { readonly before: string; readonly after: string };
  readonly ms: number;
  /** Agent trajectories whose tool results this verifier gives otherwise: which turns (1-based), and what changed. */
  readonly trajectoriesChanged?: readonly ChangedTrajectory[];
}

export interface ChangedTrajectory {
  readonly attemptId: string;
  readonly taskId: string;
  readonly sample: number;
  /** "turn 1 verify: semantic -> pass", one per call whose result changed. */
  readonly calls: readonly string[];
}

/** What `g` says, for comparing it with another grade. */
export function summaryOf(g: GradeResult): GradeSummary {
  return {
    category: g.category,
    ...(g.strict !== undefined ? { strict: g.strict } : {}),
    ...(g.bugFollowing !== undefined ? { bugFollowing: g.bugFollowing } : {}),
    ...(g.matrix ? { matrix: g.matrix } : {}),
  };
}

/** The summary in words: "pass (strict)", "semantic (bug-following)". */
export function describeGrade(s: GradeSummary): string {
  const flags = [s.strict === true ? 'strict' : s.strict === false && s.category === 'pass' ? 'not strict' : '', s.bugFollowing ? 'bug-following' : ''].filter(Boolean);
  return `${s.category}${flags.length ? ` (${flags.join(', ')})` : ''}`;
}

/** A re-verification stopped by its signal before every answer was graded. */
export class RegradeCancelledError extends Error {
  constructor(readonly runId: string) {
    super(`re-verification of run ${runId} was cancelled`);
    this.name = 'RegradeCancelledError';
  }
}

/**
 * Grades every answer of `run` (its `attempts`) again with `ports.grader`.
 * `onProgress` is told after each answer. Nothing is written: the caller
 * decides whether to store the re-graded attempts. Aborting `signal` cancels
 * the gradings still queued or running, and the call throws
 * `RegradeCancelledError` (a report of half the answers would read as a
 * smaller run).
 */
export async function regradeRun(
  run: RunRecord,
  attempts: readonly AttemptRecord[],
  ports: Pick<SessionPorts, 'tasks' | 'grader' | 'runner' | 'clock'>,
  opts: { readonly onProgress?: (done: number, total: number) => void; readonly signal?: AbortSignal } = {},
): Promise<RegradeReport> {
  const clock = ports.clock ?? Date.now;
  const started = clock();
  const byId = new Map(ports.tasks.map((t) => [t.id, t]));
  const { signal } = opts;
  if (signal?.aborted) throw new RegradeCancelledError(run.id);
  const grade = neverThrows(gradeClosure(run.config, ports.grader, ports.tasks, signal));
  const todo = attempts.filter((a) => a.runId === run.id && a.response);
  let done = 0;
  const out = await Promise.all(
    todo.map(async (a) => {
      const task = byId.get(a.taskId) ?? handlerOnlyTask(handlerOfTaskId(a.taskId));
      const g = await grade(task, a.response!.text);
      if (!signal?.aborted) opts.onProgress?.(++done, todo.length);
      return { a, g };
    }),
  );
  const tools = agentDeps(run.config, ports.grader, clock, ports.runner);
  const trajectoriesChanged: ChangedTrajectory[] = [];
  if (tools) {
    await Promise.all(
      todo.filter((a) => a.trajectory).map(async (a) => {
        const task = byId.get(a.taskId);
        if (!task) return;
        const calls: string[] = [];
        let n = 0;
        const turns = a.trajectory!.turns;
        for (let t = 0; t < turns.length; t++) {
          const stored = turns[t].results;
          const made = turns[t].response.toolCalls ?? [];
          for (let k = 0; k < made.length; k++) {
            n++;
            const again = await tools.answer(task, made[k], n > run.config.agent!.maxCalls, signal ?? new AbortController().signal);
            const was = stored[k]?.error ?? stored[k]?.category ?? 'none';
            const now = again.error ?? again.category ?? 'none';
            if (was !== now) calls.push(`turn ${t + 1} ${made[k].name}: ${was} -> ${now}`);
            // A run's result is concrete evaluation, the same every time: any other text is a change.
            else if (made[k].name === 'run' && stored[k] && stored[k].text !== again.text) calls.push(`turn ${t + 1} run: the result's text changed`);
          }
        }
        if (calls.length) trajectoriesChanged.push({ attemptId: a.id, taskId: a.taskId, sample: a.sample, calls });
      }),
    );
    trajectoriesChanged.sort((x, y) => (x.attemptId < y.attemptId ? -1 : 1));
  }
  // A cancelled grading was turned into an `internal` grade above: none of them may count.
  if (signal?.aborted) throw new RegradeCancelledError(run.id);
  const changed: ChangedGrade[] = [];
  let unchanged = 0;
  let ungraded = 0;
  for (const { a, g } of out) {
    if (!a.grade) {
      ungraded++;
      continue;
    }
    const before = summaryOf(a.grade);
    const after = summaryOf(g);
    if (canonicalJson(before) === canonicalJson(after)) unchanged++;
    else changed.push({ attemptId: a.id, taskId: a.taskId, sample: a.sample, round: a.round, before, after, beforeVerifier: run.provenance.verifier, afterVerifier: PROVENANCE.verifier });
  }
  changed.sort((x, y) => (x.attemptId < y.attemptId ? -1 : x.attemptId > y.attemptId ? 1 : 0));
  const now = clock();
  return {
    runId: run.id,
    total: out.length - ungraded,
    unchanged,
    changed,
    ungraded,
    attempts: out.map(({ a, g }) => ({ ...a, grade: g, gradedAt: now })),
    verifier: { before: run.provenance.verifier, after: PROVENANCE.verifier },
    ms: now - started,
    ...(tools ? { trajectoriesChanged } : {}),
  };
}

/**
 * The report in words, as the CLI prints it and the Runs page shows it: a
 * summary ("run X: 9 of 10 grades unchanged (4.2 s)"), the two verifiers,
 * and one line per changed grade with both verifier versions.
 */
export function regradeText(report: RegradeReport): { readonly summary: string; readonly verifiers: string; readonly changes: readonly string[] } {
  const newly = report.ungraded ? `, ${report.ungraded} answers had no grade and were graded now` : '';
  return {
    summary: `run ${report.runId}: ${report.unchanged} of ${report.total} grades unchanged${newly} (${(report.ms / 1000).toFixed(1)} s)`,
    verifiers: `verifier: stored grades ${report.verifier.before}, this verifier ${report.verifier.after}`,
    changes: [
      ...report.changed.map((c) => `changed ${c.taskId} sample ${c.sample} round ${c.round}: ${describeGrade(c.before)} (${c.beforeVerifier}) -> ${describeGrade(c.after)} (${c.afterVerifier})`),
      ...(report.trajectoriesChanged ?? []).map((c) => `tool results changed in the trajectory of ${c.taskId} sample ${c.sample}: ${c.calls.join('; ')}`),
    ],
  };
}
