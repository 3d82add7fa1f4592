/**
 * The Evaluate page's progress in words (issue: a run whose answers were all
 * grading read "Finished 0 of 5 (0%) … ETA 0 s", as if nothing were under
 * way): what is finished, what is in flight and where, the tokens labelled
 * in and out. Pure, so the words are tested (test/app/progress-text.test.ts).
 */
import { plural } from '../../core/plural.ts';

/** The attempts table's counts by state (attempts-table.svelte.ts). */
export interface AttemptCounts {
  readonly sent: number;
  readonly retrying: number;
  readonly answered: number;
  readonly grading: number;
}

/** What is under way: "2 answers grading, 3 requests waiting for the provider"; empty when nothing is. */
export function inFlightText(c: AttemptCounts): string {
  const parts: string[] = [];
  if (c.grading) parts.push(`${plural(c.grading, 'answer')} grading`);
  if (c.answered) parts.push(`${plural(c.answered, 'answer')} waiting to be graded`);
  if (c.sent) parts.push(`${plural(c.sent, 'request')} waiting for the provider`);
  if (c.retrying) parts.push(`${plural(c.retrying, 'request')} to retry`);
  return parts.join(', ');
}

/** "900 in / 250 out": a run's tokens, each direction named. */
export function tokensText(t: { readonly input: number; readonly output: number }): string {
  return `${t.input} in / ${t.output} out`;
}

/** The ETA in words; none ("–") until a chain has finished, since a rate of nothing done says nothing. */
export function etaText(ms: number | null, done: number): string {
  if (ms === null || done === 0) return '–';
  return ms > 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}
