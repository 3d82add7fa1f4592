/**
 * The Evaluate page's form, checked as it is typed: each field that holds
 * something a run cannot use gets a message of its own, and Start waits
 * until there is none. Pure: the page passes the fields' current values.
 */
import type { AgentSettings } from '../../core/eval/agent/tools.ts';
import { SHOT_COUNTS } from '../../core/eval/prompt/prompt.ts';
import { RUN_DEFAULTS, type RunChoiceInput } from '../../core/eval/session/config.ts';
import type { ExtractMode } from '../../core/eval/grade/answer.ts';
import type { FeedbackMode } from '../../core/eval/run/run-types.ts';
import { baseUrlProblem } from '../../core/llm/base-url.ts';
import type { ProviderKind, SamplingParams } from '../../core/llm/types.ts';
import { DEFAULT_RENAME_SEED, type RenameStyle } from '../../core/rename/choice.ts';
import { DEFAULT_SHAPE_SEED, type ShapeStyle } from '../../core/shape/choice.ts';

/** The run's number fields as the page binds them (an empty number input is null). */
export interface EvaluateFields {
  readonly n: number | null;
  readonly shots: number | null;
  readonly repairRounds: number | null;
  readonly concurrency: number | null;
  readonly temperature: number | null;
  readonly maxTokens: number | null;
  readonly maxCost: number | null;
  readonly maxTotalTokens: number | null;
}

/** The names the model is shown (docs/rename.md): '' for hv6's own, else a style and its seed. */
export interface NamesFields {
  readonly names: string;
  readonly renameSeed: number | null;
  /** The order of the shown code (docs/shape.md): '' for the kernel's own, else a style and its seed. */
  readonly shape: string;
  readonly shapeSeed: number | null;
}

/** The base URL (a provider setting), the run's number fields and the renaming's and shape's seeds. */
export type FieldName = 'baseUrl' | keyof EvaluateFields | 'renameSeed' | 'shapeSeed';

/** Each field's problem, in words; a field that is fine is absent. */
export type FieldErrors = Partial<Record<FieldName, string>>;

/** What the Model field suggests, per provider. */
export const MODEL_PLACEHOLDER: Record<ProviderKind, string> = {
  openai: 'e.g. gpt-4o-mini',
  anthropic: 'e.g. claude-sonnet-4-5',
  gemini: 'e.g. gemini-2.5-flash',
  'openai-compatible': "the server's model name, e.g. llama3.1",
};

/** Why `url` cannot be a provider's base URL, or undefined when it can (the client's own rule, LLM017). */
function baseUrlError(url: string): string | undefined {
  const text = url.trim();
  if (!text) return 'a base URL is needed, e.g. https://api.openai.com/v1';
  return baseUrlProblem(text);
}

/** The most worked examples a prompt holds: the benchmark's largest setting. */
export const MAX_SHOTS = Math.max(...SHOT_COUNTS);

/**
 * The form's run numbers before the user changes them: the core's defaults,
 * the same the CLI's options fall back to, so Start with the defaults makes
 * the run (and the run id) `osvlab run` makes for the same tasks and endpoint.
 */
export const FORM_DEFAULTS = {
  n: RUN_DEFAULTS.n,
  shots: RUN_DEFAULTS.shots,
  repairRounds: RUN_DEFAULTS.repairRounds,
  concurrency: RUN_DEFAULTS.concurrency,
} as const;

interface Rule {
  readonly label: string;
  readonly min: number;
  readonly max?: number;
  readonly whole: boolean;
  /** Empty means "the provider's default" or "no limit". */
  readonly optional: boolean;
}

const RULES: Record<keyof EvaluateFields, Rule> = {
  n: { label: 'Samples per task', min: 1, max: 20, whole: true, optional: false },
  shots: { label: 'Few-shot examples', min: 0, max: MAX_SHOTS, whole: true, optional: false },
  repairRounds: { label: 'Repair rounds', min: 0, max: 5, whole: true, optional: false },
  concurrency: { label: 'Requests at once', min: 1, max: 32, whole: true, optional: false },
  temperature: { label: 'Temperature', min: 0, max: 2, whole: false, optional: true },
  maxTokens: { label: 'Max output tokens', min: 1, whole: true, optional: true },
  maxCost: { label: 'Max cost', min: 0, whole: false, optional: true },
  maxTotalTokens: { label: 'Max total tokens', min: 0, whole: true, optional: true },
};

function numberError(v: number | null, r: Rule): string | undefined {
  if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) {
    return r.optional ? undefined : `${r.label} is needed (a ${r.whole ? 'whole ' : ''}number${r.max !== undefined ? ` from ${r.min} to ${r.max}` : ''})`;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) return `${r.label} must be a number`;
  if (r.whole && !Number.isInteger(v)) return `${r.label} must be a whole number`;
  if (v < r.min || (r.max !== undefined && v > r.max)) {
    return r.max !== undefined ? `${r.label} must be from ${r.min} to ${r.max} (not ${v})` : `${r.label} must be at least ${r.min} (not ${v})`;
  }
  return undefined;
}

const SEED_RULE: Rule = { label: 'The names seed', min: 0, whole: true, optional: false };

/** Every field's problem: the provider's base URL, then the run's numbers, then the renaming's and the shape's seeds (only when chosen). */
export function fieldErrors(baseUrl: string, f: EvaluateFields & Partial<NamesFields>): FieldErrors {
  const out: { -readonly [K in FieldName]?: string } = {};
  const url = baseUrlError(baseUrl);
  if (url) out.baseUrl = url;
  for (const name of Object.keys(RULES) as (keyof typeof RULES)[]) {
    const e = numberError(f[name], RULES[name]);
    if (e) out[name] = e;
  }
  const seed = f.names ? numberError(f.renameSeed ?? null, SEED_RULE) : undefined;
  if (seed) out.renameSeed = seed;
  const shapeSeed = f.shape ? numberError(f.shapeSeed ?? null, { ...SEED_RULE, label: 'The order seed' }) : undefined;
  if (shapeSeed) out.shapeSeed = shapeSeed;
  return out;
}

/** The Start button's words: what will be asked for. */
export function startLabel(tasks: number, n: number | null): string {
  if (tasks === 0) return 'Start';
  const samples = typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : 1;
  const t = `${tasks} ${tasks === 1 ? 'task' : 'tasks'}`;
  return samples === 1 ? `Start: ${t}` : `Start: ${t} × ${samples} samples = ${tasks * samples} answers`;
}

/**
 * The values of a run form saved on this device that may come back after a
 * reload: a field keeps its default (is absent here) when its saved value
 * has another type than the field holds now, or, for a field with a fixed
 * set of choices, is none of them (an older build's choice, a hand-edited
 * store). null is the value of an empty number field: it may replace a
 * number, and a number may fill an empty one.
 */
export function restoredFields<K extends string>(
  saved: unknown,
  current: Readonly<Record<K, unknown>>,
  choices: Partial<Record<K, readonly unknown[]>> = {},
): Partial<Record<K, unknown>> {
  if (!saved || typeof saved !== 'object' || Array.isArray(saved)) return {};
  const out: Partial<Record<K, unknown>> = {};
  for (const f of Object.keys(current) as K[]) {
    if (!Object.hasOwn(saved, f)) continue;
    const v = (saved as Record<string, unknown>)[f];
    const now = current[f];
    const fits = typeof v === typeof now || (v === null && (now === null || typeof now === 'number')) || (typeof v === 'number' && now === null);
    if (fits && (choices[f]?.includes(v) ?? true)) out[f] = v;
  }
  return out;
}

/** The run form's choices beside its numbers (the sampling parameters are already the provider's shape). */
export interface RunForm extends NamesFields {
  readonly n: number;
  readonly shots: number;
  readonly repairRounds: number;
  readonly concurrency: number;
  readonly params: SamplingParams;
  readonly extract: ExtractMode;
  readonly strict: boolean;
  readonly matrix: boolean;
  readonly feedback: FeedbackMode;
  readonly promptVariant: string;
  /** The agent mode's settings, as `osvlab run --agent` takes them; absent: one answer (and repair rounds). */
  readonly agent?: AgentSettings;
}

/** Where the run's requests go. */
export interface RunEndpoint {
  readonly provider: ProviderKind;
  readonly baseUrl: string;
  readonly model: string;
}

/**
 * The run options the form states, as `osvlab run` states them with the same
 * flags; the core's `runChoiceOf` makes the run from them (one builder, one
 * run id: test/app/evaluate-form.test.ts compares the two, agent runs too).
 */
export function formRunOptions(form: RunForm, to: RunEndpoint, tasks: readonly string[], gradeConcurrency: number): RunChoiceInput {
  return {
    provider: to.provider,
    baseUrl: to.baseUrl,
    model: to.model,
    params: form.params,
    tasks: [...tasks],
    shots: form.shots,
    n: form.n,
    repairRounds: form.repairRounds,
    concurrency: form.concurrency,
    gradeConcurrency,
    ...(form.extract === 'osvbench' ? { extract: form.extract } : {}),
    grading: { strict: form.strict, matrix: form.matrix },
    feedback: form.feedback,
    prompt: form.promptVariant,
    ...(form.names ? { rename: { style: form.names as RenameStyle, seed: form.renameSeed ?? DEFAULT_RENAME_SEED } } : {}),
    ...(form.shape ? { shape: { style: form.shape as ShapeStyle, seed: form.shapeSeed ?? DEFAULT_SHAPE_SEED } } : {}),
    ...(form.agent ? { agent: form.agent } : {}),
  };
}
