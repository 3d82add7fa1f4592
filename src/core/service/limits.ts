/**
 * The hard limit of every verifier job: how long past its start a job may
 * run before its worker is terminated (the only reliable stop for a query
 * that ignores its own timeout, docs/design.md §5). One function for the
 * page, the CLI's commands, the grading pool and an agent's tool calls
 * (`verify` and `run` alike), so a job of one kind is stopped at the same
 * time wherever it runs.
 */
import { DEFAULT_GRADE_TIMEOUT_MS } from '../eval/grade/grade-types.ts';
import { DEFAULT_BUDGET_MS } from '../budget.ts';

/**
 * How long past its budget a command's verification or comparison may run:
 * after the deadline a refutation is still made readable, with up to three
 * preference queries of 3 s each (src/core/verify/counterexample-wellformed.ts)
 * and the replay.
 */
const SLACK_MS = 15_000;

/** Loading Z3 takes 1-3 s idle and far longer on a loaded machine; a worker that takes longer than this is broken. */
export const START_LIMIT_MS = 180_000;

/** A job on a verifier worker, as its hard limit sees it. */
export type LimitedJob =
  /** Grading one spec: refinement, bug-following, strict, and one check per variant of the matrix. */
  | { readonly kind: 'grade'; readonly timeoutMs?: number; readonly variants?: number }
  /**
   * One verification, with the lemma checks when `strict`. `waiting`:
   * a person waits for it in the page, which stops it at half its budget
   * again (at least a second), strict or not, and shows a timeout.
   */
  | { readonly kind: 'verify'; readonly timeoutMs?: number; readonly strict?: boolean; readonly waiting?: boolean }
  /** Two specs compared by meaning (`diff`, Compare, grouping by meaning). */
  | { readonly kind: 'diff'; readonly timeoutMs?: number }
  /** The lemma checks alone (`lemmas`): no wall-clock budget, one per query. */
  | { readonly kind: 'lemmas'; readonly queryTimeoutMs: number }
  /**
   * An agent's tool call with its limit (`--tool-timeout`): a `verify` call
   * graded with `limitMs` as the solver's budget, or a `run` call (concrete
   * evaluation, no solver) stopped by its own deadline at `limitMs`.
   */
  | { readonly kind: 'tool'; readonly limitMs: number };

/**
 * The wall-clock limit of `job` before its worker is stopped.
 * - grade: six solver budgets and half a minute for the grading proper
 *   (refinement, bug-following, strict, the worker's start), plus one
 *   budget per variant of the matrix;
 * - verify: the budget and the slack, plus the lemma checks' limit
 *   with `strict` (they run past the budget, one budget per query); in the
 *   page, the budget and half of it;
 * - diff: the budget and the slack;
 * - lemmas: a query per fact (a few hundred at most), each stopped by the
 *   engine's watchdog when it ignores its timeout; this is the backstop;
 * - tool: twice the call's limit and half a minute, for either tool (the
 *   same limit bounds a fresh worker's start, Z3's loading included, for a
 *   `verify` call); a `run` call's evaluation stops itself at the limit
 *   (AGENT011) unless one step runs long (the C's symbolic run, a string
 *   the spec builds), which only this stops.
 */
export function hardLimitMs(job: LimitedJob): number {
  switch (job.kind) {
    case 'grade':
      return (job.timeoutMs ?? DEFAULT_GRADE_TIMEOUT_MS) * (6 + (job.variants ?? 0)) + 30_000;
    case 'verify': {
      const budget = job.timeoutMs ?? DEFAULT_BUDGET_MS;
      if (job.waiting) return budget + Math.max(1000, budget / 2);
      return budget + SLACK_MS + (job.strict ? hardLimitMs({ kind: 'lemmas', queryTimeoutMs: budget }) : 0);
    }
    case 'diff':
      return (job.timeoutMs ?? DEFAULT_BUDGET_MS) + SLACK_MS;
    case 'lemmas':
      return 30 * 60_000 + 512 * job.queryTimeoutMs;
    case 'tool':
      return job.limitMs * 2 + 30_000;
  }
}
