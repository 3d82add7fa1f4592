/**
 * A run's canonical config and its id. Whatever defines a run's results is
 * in the config, with every default filled in, and the id is a hash of that
 * config without what only changes the pace (requests and gradings at once):
 * the same experiment gets the same id in the CLI and the page, and a shard
 * of it the same id as the whole (docs/design.md, "One run session").
 */
import { canonicalJson, sha256Hex } from '../../hash.ts';
import { DEFAULT_GRADE_TIMEOUT_MS, type GradingSettings } from '../grade/grade-types.ts';
import { DEFAULT_PROMPT_VARIANT } from '../prompt/variants.ts';
import type { FeedbackMode, RunConfig } from '../run/run-types.ts';
import { AGENT_DEFAULTS, type AgentSettings } from '../agent/tools.ts';
import { createProvider } from '../../llm/provider.ts';

/** What a repair round tells the model about its failed answer. */
export const FEEDBACK_MODES: readonly FeedbackMode[] = ['counterexample', 'verdict', 'none'];
export const DEFAULT_FEEDBACK: FeedbackMode = 'counterexample';
/** The prompt variant every run used before variants existed, and a config without one means. */
export const DEFAULT_PROMPT = DEFAULT_PROMPT_VARIANT;

/**
 * The grading policy `grading` describes, every default filled in: the one
 * place the defaults are (the time limit, strict on, the matrix off), for
 * both front ends, a run's config and a file of answers alike.
 */
export function gradingOf(grading: Partial<GradingSettings> | undefined): Required<GradingSettings> {
  return { timeoutMs: grading?.timeoutMs ?? DEFAULT_GRADE_TIMEOUT_MS, strict: grading?.strict ?? true, matrix: grading?.matrix ?? false };
}

/** The policy as a config records it: `gradingOf`'s, the matrix written only when on, as runs made before it existed read. */
export function recordedGrading(grading: Partial<GradingSettings> | undefined): GradingSettings {
  const g = gradingOf(grading);
  return g.matrix ? g : { timeoutMs: g.timeoutMs, strict: g.strict };
}

/** What a run does when its front end leaves these out (`canonicalConfig`; the CLI's declarations show them). */
export const RUN_DEFAULTS = { shots: 5, n: 1, repairRounds: 0, concurrency: 4, gradeConcurrency: 2 } as const;

/** What a front end chose; everything left out takes the shared default. */
export type RunChoice = Omit<RunConfig, 'feedback' | 'prompt' | 'grading' | 'shots' | 'n' | 'repairRounds' | 'concurrency' | 'gradeConcurrency' | 'rename' | 'shape' | 'agent'> &
  Partial<Pick<RunConfig, 'feedback' | 'prompt' | 'shots' | 'n' | 'repairRounds' | 'concurrency' | 'gradeConcurrency' | 'rename' | 'shape'>> & {
    readonly grading?: Partial<GradingSettings>;
    /** The agent mode, its settings left out taking AGENT_DEFAULTS; absent: one answer (and repair rounds). */
    readonly agent?: Partial<AgentSettings>;
  };

/**
 * A run's options as every front end states them: the CLI's `run` flags
 * (cli/commands/run.ts `runOptionsOf`), the Evaluate form (app/state/
 * evaluate-form.ts `formRunOptions`) and a study's cell (study/study-run.ts).
 * The base URL may be left out (the provider's own endpoint) or written as a
 * user types it.
 */
export type RunChoiceInput = Omit<RunChoice, 'baseUrl'> & { readonly baseUrl?: string };

/**
 * The one builder of a run's choice from its options, for the CLI, the page
 * and studies alike, so the same options give the same run id everywhere
 * (test/app/evaluate-form.test.ts). Its rules:
 * - the base URL is the one the client will use (a bare local host gets /v1);
 * - the agent mode has no repair rounds: the model repairs with its tools, so
 *   an agent run records 0 whatever repair count came with it (the CLI refuses
 *   `--agent` with `--repair N` before it gets here; a study's `repair` is for
 *   its one-answer cells).
 */
export function runChoiceOf(options: RunChoiceInput): RunChoice {
  const { baseUrl, agent, repairRounds, ...rest } = options;
  return {
    ...rest,
    baseUrl: createProvider({ kind: options.provider, baseUrl }).baseUrl,
    ...(agent ? { repairRounds: 0, agent } : repairRounds !== undefined ? { repairRounds } : {}),
  };
}

/** The agent mode's settings with every default written out, in one key order. */
function agentOf(agent: Partial<AgentSettings>): AgentSettings {
  return {
    maxTurns: agent.maxTurns ?? AGENT_DEFAULTS.maxTurns,
    maxCalls: agent.maxCalls ?? AGENT_DEFAULTS.maxCalls,
    verifyAgainst: agent.verifyAgainst ?? AGENT_DEFAULTS.verifyAgainst,
    toolTimeoutMs: agent.toolTimeoutMs ?? AGENT_DEFAULTS.toolTimeoutMs,
  };
}

/** The config with every default written out, in one key order. */
export function canonicalConfig(choice: RunChoice): RunConfig {
  return {
    provider: choice.provider,
    baseUrl: choice.baseUrl,
    model: choice.model,
    params: { ...choice.params },
    tasks: [...choice.tasks],
    shots: choice.shots ?? RUN_DEFAULTS.shots,
    n: choice.n ?? RUN_DEFAULTS.n,
    repairRounds: choice.repairRounds ?? RUN_DEFAULTS.repairRounds,
    concurrency: Math.max(1, choice.concurrency ?? RUN_DEFAULTS.concurrency),
    gradeConcurrency: Math.max(1, choice.gradeConcurrency ?? RUN_DEFAULTS.gradeConcurrency),
    ...(choice.extract === 'osvbench' ? { extract: 'osvbench' as const } : {}),
    grading: recordedGrading(choice.grading),
    feedback: choice.feedback ?? DEFAULT_FEEDBACK,
    prompt: choice.prompt ?? DEFAULT_PROMPT,
    // Written only when the model sees renamed names, as runs made before renamings existed read (their ids stay).
    ...(choice.rename ? { rename: { style: choice.rename.style, seed: choice.rename.seed } } : {}),
    // Likewise only when the shown code is shaped (docs/shape.md).
    ...(choice.shape ? { shape: { style: choice.shape.style, seed: choice.shape.seed } } : {}),
    // Likewise only in the agent mode: the mode and its settings are part of the run's id.
    ...(choice.agent ? { agent: agentOf(choice.agent) } : {}),
  };
}

/** The part of a config that defines the results: the pace (concurrency) is left out. */
function identityOf(config: RunConfig): unknown {
  const c = canonicalConfig(config);
  return { ...c, concurrency: 0, gradeConcurrency: 0 };
}

/** The run id: 12 hex digits of the hash of the canonical config. */
export async function runIdOf(config: RunConfig): Promise<string> {
  return (await sha256Hex(canonicalJson(identityOf(config)))).slice(0, 12);
}
