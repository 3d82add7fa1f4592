/**
 * What a run has counted so far, as one value: the chains ended and how,
 * and the tokens and money the answers took. The runner replaces it as
 * attempts are answered and chains end (`withAnswer`, `withChain`), and
 * reads its progress from it (`progressOf`); nothing else counts.
 */
import type { AttemptRecord } from './run-types.ts';

export interface Tally {
  /** (task, sample) chains ended, errors included. */
  readonly done: number;
  /** Chains whose first answer passed. */
  readonly passed: number;
  /** Chains that passed in some round. */
  readonly passedAfterRepair: number;
  /** Chains that ended with nothing charged to the model (unanswered or internal). */
  readonly errors: number;
  /** Chains that did work in this session (asked or graded something): the pace of the ETA. */
  readonly worked: number;
  /** Tokens and USD of the answers the provider sent. */
  readonly spent: { readonly input: number; readonly output: number; readonly cost: number };
  /** Answers reused from the response cache: nothing was sent for them. */
  readonly cached: { readonly answers: number; readonly input: number; readonly output: number };
}

export const EMPTY_TALLY: Tally = {
  done: 0,
  passed: 0,
  passedAfterRepair: 0,
  errors: 0,
  worked: 0,
  spent: { input: 0, output: 0, cost: 0 },
  cached: { answers: 0, input: 0, output: 0 },
};

/** How one (task, sample) chain ended. */
export type ChainEnd =
  /** Stopped before its end (cancel, pause of a halted run, budget): not counted, resumed later. */
  | { readonly kind: 'stopped' }
  /** A request failed for good or the grader failed: counted as an error, asked again on resume. */
  | { readonly kind: 'error' }
  /** Graded to its end; `passedRound` is the round that passed, if any. */
  | { readonly kind: 'finished'; readonly passedRound?: number; readonly worked: boolean };

/** The tally with `attempt`'s usage counted (nothing for an attempt without an answer). */
export function withAnswer(t: Tally, attempt: AttemptRecord): Tally {
  const r = attempt.response;
  if (!r) return t;
  // A cached answer cost nothing this time: its tokens are not spent.
  if (attempt.cached) {
    const c = t.cached;
    return { ...t, cached: { answers: c.answers + 1, input: c.input + r.usage.input, output: c.output + r.usage.output } };
  }
  const s = t.spent;
  return { ...t, spent: { input: s.input + r.usage.input, output: s.output + r.usage.output, cost: s.cost + (attempt.cost ?? 0) } };
}

/** The tally with one more chain ended as `end`. */
export function withChain(t: Tally, end: ChainEnd): Tally {
  switch (end.kind) {
    case 'stopped':
      return t;
    case 'error':
      return { ...t, done: t.done + 1, errors: t.errors + 1 };
    case 'finished':
      return {
        ...t,
        done: t.done + 1,
        passed: t.passed + (end.passedRound === 0 ? 1 : 0),
        passedAfterRepair: t.passedAfterRepair + (end.passedRound !== undefined ? 1 : 0),
        worked: t.worked + (end.worked ? 1 : 0),
      };
  }
}

/**
 * Estimated ms to finish `total` chains at this session's pace (`elapsedMs`
 * over the chains that did work); null before the first such chain.
 */
export function etaMs(t: Tally, total: number, elapsedMs: number): number | null {
  const remaining = total - t.done;
  if (t.worked === 0) return null;
  return remaining === 0 ? 0 : Math.round((elapsedMs / t.worked) * remaining);
}
