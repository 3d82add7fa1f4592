/**
 * The prompts of a run, chosen by its config: the prompt variant
 * (`config.prompt`) builds the first prompt of each task, and the feedback
 * mode (`config.feedback`) decides what a repair prompt carries of the
 * verifier's answer. The run session (src/core/eval/session/) asks this
 * module once per run and knows nothing else about prompts.
 */
import type { Task } from '../../tasks/task.ts';
import type { RunConfig } from '../run/run-types.ts';
import type { RunnerDeps } from '../run/runner.ts';
import { buildRepairPrompt, promptBuilder } from './prompt.ts';
import { PROMPT_VARIANTS } from './variants.ts';

export type RunPrompts = Pick<RunnerDeps, 'buildPrompt' | 'buildRepairPrompt'>;

/** The prompt builders of a run with `config`; throws on a prompt variant this build does not know. */
export function promptsForRun(config: Pick<RunConfig, 'prompt' | 'feedback'>, tasks: readonly Task[]): RunPrompts {
  const variant = config.prompt ?? 'standard';
  if (!PROMPT_VARIANTS.includes(variant)) throw new Error(`unknown prompt variant "${variant}" (this build has ${PROMPT_VARIANTS.join(', ')})`);
  // Until the feedback modes are implemented every mode repairs with the counterexample and diagnosis.
  return { buildPrompt: promptBuilder(tasks), buildRepairPrompt };
}
