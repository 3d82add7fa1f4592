/**
 * The prompts of a run, chosen by its config: the prompt variant
 * (`config.prompt`, variants.ts) builds the first prompt of each task, and
 * the feedback mode (`config.feedback`, repair.ts) decides what a repair
 * prompt carries of the verifier's answer; the renaming (`config.rename`,
 * docs/rename.md) is applied to both, and the shape (`config.shape`,
 * docs/shape.md) to the code the first prompt shows. The run session
 * (src/core/eval/session/) asks this module once per run and knows nothing
 * else about prompts.
 */
import { lensFor } from '../../rename/lens.ts';
import type { Task } from '../../tasks/task.ts';
import type { RunConfig } from '../run/run-types.ts';
import type { RunnerDeps } from '../run/runner.ts';
import { DEFAULT_FEEDBACK } from '../session/config.ts';
import { promptBuilder } from './prompt.ts';
import { repairPromptBuilder } from './repair.ts';
import { DEFAULT_PROMPT_VARIANT, promptVariant } from './variants.ts';

export type RunPrompts = Pick<RunnerDeps, 'buildPrompt' | 'buildRepairPrompt'>;

/** The prompt builders of a run with `config`; throws `UnknownVariantError` for a prompt variant this build does not know. */
export function promptsForRun(config: Pick<RunConfig, 'prompt' | 'feedback' | 'rename' | 'shape'>, tasks: readonly Task[]): RunPrompts {
  const variant = promptVariant(config.prompt ?? DEFAULT_PROMPT_VARIANT);
  const rename = config.rename;
  const lens = rename ? lensFor(rename) : undefined;
  return {
    buildPrompt: promptBuilder(tasks, { variant, ...(rename ? { rename } : {}), ...(config.shape ? { shape: config.shape } : {}) }),
    buildRepairPrompt: repairPromptBuilder(config.feedback ?? DEFAULT_FEEDBACK, lens ? (m) => lens.forward.feedback(m) : undefined),
  };
}
