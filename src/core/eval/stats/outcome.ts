/**
 * What became of an attempt, and the chains attempts form: the words every
 * statistic of a run is counted in (metrics.ts, repair-curve.ts). Only the
 * model's outcomes (pass, syntax, semantic, timeout, unknown) are charged to
 * it; an attempt whose request failed for good is `unanswered` and one the
 * grader failed on is `internal`, and neither says anything about the model.
 */
import { type GradeCategory, MODEL_CATEGORIES } from '../grade/grade-types.ts';
import type { AttemptRecord } from '../run/run-types.ts';
import type { Task } from '../../tasks/task.ts';

/** The model's outcomes: what pass@k and the rates are made of. */
export type Outcome = (typeof MODEL_CATEGORIES)[number];

export const OUTCOMES: readonly Outcome[] = MODEL_CATEGORIES;

/** Outcomes that are not the model's: counted and shown, never charged. */
export type Uncharged = 'unanswered' | 'internal';

export const UNCHARGED: readonly Uncharged[] = ['unanswered', 'internal'];

/** What statistics need of a task. */
export type TaskFacts = Pick<Task, 'id' | 'handler' | 'bug_classes' | 'bug_count'>;

/** What became of an attempt: a grade category, `unanswered`, or undefined while it is unfinished. */
export function attemptOutcome(a: AttemptRecord): GradeCategory | 'unanswered' | undefined {
  if (a.grade) return a.grade.category;
  if (a.error) return 'unanswered';
  return undefined;
}

/** The model's outcome of an attempt, or undefined when it is unfinished or not the model's (unanswered, internal). */
export function outcomeOf(a: AttemptRecord): Outcome | undefined {
  const o = attemptOutcome(a);
  return o === undefined || o === 'unanswered' || o === 'internal' ? undefined : o;
}

/** One (task, sample) chain: its first answer and the repairs that followed, by round. */
export interface Chain {
  readonly taskId: string;
  readonly sample: number;
  readonly rounds: ReadonlyMap<number, AttemptRecord>;
}

/** The chains of a list of attempts, in the order their first attempt appears. */
export function chainsOf(attempts: readonly AttemptRecord[]): Chain[] {
  const chains = new Map<string, { taskId: string; sample: number; rounds: Map<number, AttemptRecord> }>();
  for (const a of attempts) {
    const key = `${a.taskId}|${a.sample}`;
    let c = chains.get(key);
    if (!c) chains.set(key, (c = { taskId: a.taskId, sample: a.sample, rounds: new Map() }));
    c.rounds.set(a.round, a);
  }
  return [...chains.values()];
}
