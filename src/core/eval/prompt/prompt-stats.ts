/**
 * Prompt sizes over the task set: for each few-shot count k, the
 * distribution of prompt tokens (o200k_base) over all tasks.
 */
import { type PromptOptions, SHOT_COUNTS, buildPrompt } from './prompt.ts';
import type { Task } from '../../tasks/task.ts';
import { type TokenDistribution, distribution, promptTokens } from './tokens.ts';

export interface ShotStats extends TokenDistribution {
  readonly shots: number;
}

/** Token statistics of every task's prompt, per k (in a renaming when `options` names one). */
export function promptTokenStats(tasks: readonly Task[], shots: readonly number[] = SHOT_COUNTS, options: PromptOptions = {}): ShotStats[] {
  return shots.map((k) => ({ shots: k, ...distribution(tasks.map((t) => promptTokens(buildPrompt(t, k, tasks, options).messages))) }));
}

/** The statistics as a fixed-width text table. */
export function formatStats(rows: readonly ShotStats[]): string {
  const head = `${'k'.padStart(2)}  ${'tasks'.padStart(5)}  ${'p10'.padStart(7)}  ${'median'.padStart(7)}  ${'p90'.padStart(7)}  ${'min'.padStart(7)}  ${'max'.padStart(7)}  ${'mean'.padStart(7)}`;
  const lines = rows.map((r) =>
    [String(r.shots).padStart(2), String(r.n).padStart(5), ...[r.p10, r.median, r.p90, r.min, r.max, r.mean].map((v) => String(Math.round(v)).padStart(7))].join('  '),
  );
  return `${head}\n${lines.join('\n')}\n`;
}
