/** The sentence a report gives for attempts of tasks the run does not list (the CLI's report and the Runs page). */
import type { RunMetrics } from './metrics.ts';

/** Undefined when there are none; else how many, naming the first few task ids. */
export function strayAttemptsNote({ count, taskIds }: RunMetrics['strayAttempts']): string | undefined {
  if (count === 0) return undefined;
  const shown = taskIds.slice(0, 5).join(', ') + (taskIds.length > 5 ? `, and ${taskIds.length - 5} more` : '');
  return `${count} attempt${count === 1 ? '' : 's'} name${count === 1 ? 's' : ''} a task this run does not have (${shown}): left out of every number`;
}
