/**
 * The study file: a grid of runs in one JSON object (docs/research.md).
 *
 *   {
 *     "name": "feedback-ablation",
 *     "provider": "openai", "models": ["gpt-4o", {"provider": "anthropic", "model": "claude-sonnet-4-5"}],
 *     "prompts": ["standard", "guide"],
 *     "names": ["hv6", "synonym", "opaque"], "renameSeed": 1,
 *     "feedback": ["counterexample", "verdict", "none"],
 *     "shots": [5], "samples": [1], "repair": 3, "tasks": "all",
 *     "params": {"temperature": 0}, "grading": {"timeoutMs": 60000, "strict": true}
 *   }
 *
 * Each factor (models, prompts, names, feedback, shots, samples) is a list
 * of levels or one level; every other key applies to every cell. `names`
 * is the renaming the model is shown (docs/rename.md): `hv6` for hv6's own
 * names (the default), `synonym` or `opaque` with `renameSeed` (default 1).
 * `modes` is how a cell asks: `answer` (one answer, then `repair` rounds;
 * the default), `agent` (the agent mode with its default limits), or
 * `{"agent": {"maxTurns": 5, "maxCalls": 10, "verifyAgainst": "reference",
 * "toolTimeoutMs": 20000}}` (any of them); an agent cell has no repair rounds.
 * `"shape": "permuted"` with `"shapeSeed"` (default 1) shows every cell's
 * code in that shape (docs/shape.md); it is not a factor. Every mistake
 * is a coded diagnostic (STUDY001-STUDY008) at its line and column, and all
 * of them are reported at once.
 */
import type { Diagnostic } from '../../diagnostic.ts';
import type { Span } from '../../span.ts';
import { PROVIDER_KINDS, type ProviderKind, REASONING_EFFORTS, type SamplingParams } from '../../llm/types.ts';
import { baseUrlProblem } from '../../llm/base-url.ts';
import { PROMPT_VARIANTS } from '../prompt/variants.ts';
import { DEFAULT_RENAME_SEED, RENAME_STYLES, type RenameStyle } from '../../rename/choice.ts';
import { DEFAULT_SHAPE_SEED, SHAPE_STYLES, type ShapeChoice, type ShapeStyle } from '../../shape/choice.ts';
import type { FeedbackMode } from '../run/run-types.ts';
import { FEEDBACK_MODES } from '../session/config.ts';
import { type AgentSettings, VERIFY_AGAINST } from '../agent/tools.ts';
import { type JsonEntry, type JsonNode, JsonSyntaxError, parseJsonSource } from './json-source.ts';

/** One model of a study: where it is served and its name there. */
export interface StudyModel {
  readonly provider: ProviderKind;
  readonly model: string;
  /** The provider's public endpoint when absent (required for openai-compatible). */
  readonly baseUrl?: string;
}

/** A level of the `names` factor. */
export type StudyNames = 'hv6' | RenameStyle;

/** Every level `names` may list. */
export const STUDY_NAMES: readonly StudyNames[] = ['hv6', ...RENAME_STYLES];

/** A level of the `modes` factor: one answer (and the study's repair rounds), or the agent mode with the limits it names. */
export type StudyMode = 'answer' | { readonly agent: Partial<AgentSettings> };

export interface StudyGrading {
  readonly timeoutMs?: number;
  readonly strict?: boolean;
  readonly matrix?: boolean;
}

export interface Study {
  readonly name: string;
  readonly description?: string;
  readonly models: readonly StudyModel[];
  /** Prompt variant ids (prompt/variants.ts). */
  readonly prompts: readonly string[];
  /** The names the model is shown: hv6's own, or a renaming's style (with `renameSeed`). */
  readonly names: readonly StudyNames[];
  /** The seed of every renamed cell. */
  readonly renameSeed: number;
  /** The shape of every cell's shown code (absent: the kernel's own order; docs/shape.md). */
  readonly shape?: ShapeChoice;
  readonly feedback: readonly FeedbackMode[];
  /** How each cell asks: one answer, or the agent mode (absent in a file: one answer). */
  readonly modes: readonly StudyMode[];
  readonly shots: readonly number[];
  /** Samples per task (n of pass@k). */
  readonly samples: readonly number[];
  /** Repair rounds of every one-answer cell (an agent cell has none). */
  readonly repair: number;
  /** A task selection, as `osvlab run --tasks` takes it. */
  readonly tasks: string;
  readonly params: SamplingParams;
  readonly grading: StudyGrading;
  readonly concurrency?: number;
  readonly gradeConcurrency?: number;
}

/** Where things are in the study file, for errors found after parsing (an unknown task in `tasks`). */
export interface StudySource {
  readonly text: string;
  readonly tasksSpan?: Span;
}

export type StudyParse =
  | { readonly ok: true; readonly study: Study; readonly source: StudySource }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

const KEYS = ['name', 'description', 'provider', 'baseUrl', 'models', 'prompts', 'names', 'renameSeed', 'shape', 'shapeSeed', 'feedback', 'modes', 'shots', 'samples', 'repair', 'tasks', 'params', 'grading', 'concurrency', 'gradeConcurrency'];
const MODEL_KEYS = ['provider', 'model', 'baseUrl'];
const PARAM_KEYS = ['temperature', 'topP', 'maxTokens', 'seed', 'reasoningEffort'];
const GRADING_KEYS = ['timeoutMs', 'strict', 'matrix'];
const AGENT_KEYS = ['maxTurns', 'maxCalls', 'verifyAgainst', 'toolTimeoutMs'];

/** A study diagnostic (file-level problems point at the first character). */
export function studyDiagnostic(code: string, message: string, span: Span, notes?: readonly string[]): Diagnostic {
  return { code, severity: 'error', message, span, ...(notes?.length ? { notes } : {}) };
}

function kindName(n: JsonNode): string {
  return n.kind === 'array' ? 'a list' : n.kind === 'object' ? 'an object' : n.kind === 'null' ? 'null' : `a ${n.kind}`;
}

/** The known name closest to `key` when it is a likely typo (edit distance 2 or less). */
function closest(key: string, known: readonly string[]): string | undefined {
  const dist = (a: string, b: string) => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    return d[a.length][b.length];
  };
  const best = known.map((k) => ({ k, d: dist(key.toLowerCase(), k.toLowerCase()) })).sort((x, y) => x.d - y.d)[0];
  return best && best.d <= 2 ? best.k : undefined;
}

/** What a study file may leave to where it is run. */
export interface StudyDefaults {
  /**
   * The base URL to use for a provider the file gives no "baseUrl" for (the
   * Evaluate page's, for the provider it is set to); undefined: none, and an
   * openai-compatible model without one is STUDY005.
   */
  readonly baseUrlFor?: (kind: ProviderKind) => string | undefined;
}

/** Reads and checks a study file; `defaults` fills in what the file leaves out. */
export function parseStudy(text: string, defaults: StudyDefaults = {}): StudyParse {
  let root: JsonNode;
  try {
    root = parseJsonSource(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return { ok: false, diagnostics: [studyDiagnostic('STUDY001', `the study file is not valid JSON: ${e.message}`, e.span)] };
  }
  const problems: Diagnostic[] = [];
  const bad = (code: string, message: string, span: Span, notes?: readonly string[]) => void problems.push(studyDiagnostic(code, message, span, notes));
  if (root.kind !== 'object') {
    bad('STUDY003', `a study file is one JSON object, not ${kindName(root)}`, root.span);
    return { ok: false, diagnostics: problems };
  }
  const fields = entriesOf(root, KEYS, 'study', bad);
  const at = (key: string) => fields.get(key);

  const str = (n: JsonNode | undefined, what: string): string | undefined => {
    if (!n) return undefined;
    if (n.kind !== 'string' || n.value.trim() === '') return void bad('STUDY003', `${what} must be a non-empty string, not ${kindName(n)}`, n.span);
    return n.value;
  };
  const int = (n: JsonNode | undefined, what: string, min: number): number | undefined => {
    if (!n) return undefined;
    if (n.kind !== 'number') return void bad('STUDY003', `${what} must be a whole number, not ${kindName(n)}`, n.span);
    if (!Number.isInteger(n.value) || n.value < min) return void bad('STUDY007', `${what} must be a whole number of at least ${min}, got ${n.value}`, n.span);
    return n.value;
  };
  const url = (n: JsonNode | undefined, what: string): string | undefined => {
    const s = str(n, what);
    if (s === undefined) return undefined;
    if (!/^https?:\/\/[^\s/]+/.test(s)) return void bad('STUDY003', `${what} must be an http:// or https:// URL, got ${JSON.stringify(s)}`, n!.span);
    const why = baseUrlProblem(s);
    if (why) return void bad('STUDY003', `${what}: ${why}`, n!.span);
    return s;
  };
  const provider = (n: JsonNode | undefined, what: string): ProviderKind | undefined => {
    const s = str(n, what);
    if (s === undefined) return undefined;
    if (!(PROVIDER_KINDS as readonly string[]).includes(s)) return void bad('STUDY004', `unknown provider ${JSON.stringify(s)}; known: ${PROVIDER_KINDS.join(', ')}`, n!.span);
    return s as ProviderKind;
  };

  const name = str(at('name'), '"name"');
  if (!at('name')) bad('STUDY005', 'the study has no "name"', root.span);
  const description = str(at('description'), '"description"');
  const defaultProvider = provider(at('provider'), '"provider"');
  const defaultBase = url(at('baseUrl'), '"baseUrl"');
  /** The base URL of `kind` where the file gives none: the defaults', when it is a URL a provider may use. */
  const givenBase = (kind: ProviderKind | undefined): string | undefined => {
    const u = kind ? defaults.baseUrlFor?.(kind)?.trim() : undefined;
    return u && /^https?:\/\/[^\s/]+/.test(u) && !baseUrlProblem(u) ? u : undefined;
  };

  const models = levels(at('models'), '"models"', bad, (n): StudyModel | undefined => {
    if (n.kind === 'string') {
      if (!defaultProvider) return void bad('STUDY005', `model ${JSON.stringify(n.value)} has no provider: give "provider" at the top, or write {"provider": ..., "model": ...}`, n.span);
      const base = defaultBase ?? givenBase(defaultProvider);
      if (defaultProvider === 'openai-compatible' && !base) return void bad('STUDY005', `model ${JSON.stringify(n.value)} is served by openai-compatible, which needs a "baseUrl"`, n.span);
      return { provider: defaultProvider, model: n.value, ...(base ? { baseUrl: base } : {}) };
    }
    if (n.kind !== 'object') return void bad('STUDY003', `a model is a name or an object {"provider", "model", "baseUrl"}, not ${kindName(n)}`, n.span);
    const m = entriesOf(n, MODEL_KEYS, 'model', bad);
    const p = provider(m.get('provider'), 'a model\'s "provider"') ?? (m.has('provider') ? undefined : defaultProvider);
    const model = str(m.get('model'), 'a model\'s "model"');
    const base = url(m.get('baseUrl'), 'a model\'s "baseUrl"') ?? (m.has('baseUrl') ? undefined : (defaultBase ?? givenBase(p)));
    if (!m.has('model')) bad('STUDY005', 'this model has no "model" name', n.span);
    if (!p && !m.has('provider')) bad('STUDY005', 'this model has no provider: give "provider" here or at the top', n.span);
    if (p === 'openai-compatible' && !base) bad('STUDY005', 'openai-compatible needs a "baseUrl"', n.span);
    if (!p || !model) return undefined;
    return { provider: p, model, ...(base ? { baseUrl: base } : {}) };
  }, (m) => `${m.provider} ${m.model} ${m.baseUrl ?? ''}`);
  if (!at('models')) bad('STUDY005', 'the study has no "models"', root.span);

  const variantIds = PROMPT_VARIANTS;
  const prompts = levels(at('prompts'), '"prompts"', bad, (n) => {
    if (n.kind !== 'string') return void bad('STUDY003', `a prompt variant is a string, not ${kindName(n)}`, n.span);
    if (!variantIds.includes(n.value)) {
      const near = closest(n.value, variantIds);
      return void bad('STUDY004', `unknown prompt variant ${JSON.stringify(n.value)}; known: ${variantIds.join(', ')}`, n.span, near ? [`did you mean "${near}"?`] : undefined);
    }
    return n.value;
  }) ?? ['standard'];
  const names = levels(at('names'), '"names"', bad, (n) => {
    if (n.kind !== 'string') return void bad('STUDY003', `a level of "names" is a string, not ${kindName(n)}`, n.span);
    if (!(STUDY_NAMES as readonly string[]).includes(n.value)) return void bad('STUDY004', `unknown names ${JSON.stringify(n.value)}; known: ${STUDY_NAMES.join(', ')}`, n.span);
    return n.value as StudyNames;
  }) ?? ['hv6'];
  const renameSeed = int(at('renameSeed'), '"renameSeed"', 0) ?? DEFAULT_RENAME_SEED;
  const shapeNode = at('shape');
  const shapeStyle = str(shapeNode, '"shape"');
  if (shapeNode && shapeStyle !== undefined && !(SHAPE_STYLES as readonly string[]).includes(shapeStyle)) bad('STUDY004', `unknown shape ${JSON.stringify(shapeStyle)}; known: ${SHAPE_STYLES.join(', ')}`, shapeNode.span);
  const shapeSeed = int(at('shapeSeed'), '"shapeSeed"', 0) ?? DEFAULT_SHAPE_SEED;
  const shape = shapeStyle && (SHAPE_STYLES as readonly string[]).includes(shapeStyle) ? { style: shapeStyle as ShapeStyle, seed: shapeSeed } : undefined;
  const feedback = levels(at('feedback'), '"feedback"', bad, (n) => {
    if (n.kind !== 'string') return void bad('STUDY003', `a feedback mode is a string, not ${kindName(n)}`, n.span);
    if (!(FEEDBACK_MODES as readonly string[]).includes(n.value)) return void bad('STUDY004', `unknown feedback mode ${JSON.stringify(n.value)}; known: ${FEEDBACK_MODES.join(', ')}`, n.span);
    return n.value as FeedbackMode;
  }) ?? ['counterexample'];
  const modes = levels(at('modes'), '"modes"', bad, (n): StudyMode | undefined => {
    if (n.kind === 'string' && (n.value === 'answer' || n.value === 'agent')) return n.value === 'answer' ? 'answer' : { agent: {} };
    if (n.kind !== 'object') return void bad('STUDY004', `a mode is "answer", "agent" or {"agent": {...}}, not ${n.kind === 'string' ? JSON.stringify(n.value) : kindName(n)}`, n.span);
    const agentNode = entriesOf(n, ['agent'], 'mode', bad).get('agent');
    if (!agentNode) return void bad('STUDY005', 'this mode has no "agent" object', n.span);
    if (agentNode.kind !== 'object') return void bad('STUDY003', `"agent" must be an object, not ${kindName(agentNode)}`, agentNode.span);
    const out: Record<string, unknown> = {};
    for (const [k, v] of entriesOf(agentNode, AGENT_KEYS, 'agent', bad)) {
      if (k === 'verifyAgainst') {
        if (v.kind === 'string' && (VERIFY_AGAINST as readonly string[]).includes(v.value)) out[k] = v.value;
        else bad('STUDY004', `"verifyAgainst" must be one of ${VERIFY_AGAINST.join(', ')}`, v.span);
      } else {
        const x = int(v, `"${k}"`, k === 'maxCalls' ? 0 : 1);
        if (x !== undefined) out[k] = x;
      }
    }
    return { agent: out as Partial<AgentSettings> };
  }, modeKey) ?? ['answer'];
  const shots = levels(at('shots'), '"shots"', bad, (n) => int(n, 'a number of shots', 0)) ?? [5];
  const samples = levels(at('samples'), '"samples"', bad, (n) => int(n, 'a number of samples', 1)) ?? [1];
  const repair = int(at('repair'), '"repair"', 0) ?? 0;
  const tasks = str(at('tasks'), '"tasks"') ?? 'all';
  const params = samplingParams(at('params'), bad);
  const grading = gradingOf(at('grading'), bad);
  const concurrency = int(at('concurrency'), '"concurrency"', 1);
  const gradeConcurrency = int(at('gradeConcurrency'), '"gradeConcurrency"', 1);

  if (problems.length || !name || !models) return { ok: false, diagnostics: problems };
  const study: Study = {
    name,
    ...(description ? { description } : {}),
    models,
    prompts,
    names,
    renameSeed,
    ...(shape ? { shape } : {}),
    feedback,
    modes,
    shots,
    samples,
    repair,
    tasks,
    params,
    grading,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(gradeConcurrency !== undefined ? { gradeConcurrency } : {}),
  };
  const tasksNode = at('tasks');
  return { ok: true, study, source: { text, ...(tasksNode ? { tasksSpan: tasksNode.span } : {}) } };
}

/**
 * `study` with every cell shown `names` (`osvlab study --rename`, the Study
 * section's Names selector): the file's own `names` factor is replaced by
 * this one level; `hv6` is hv6's own names.
 */
export function withNames(study: Study, names: StudyNames, seed: number = study.renameSeed): Study {
  return { ...study, names: [names], renameSeed: seed };
}

/** `study` with every cell's code in `shape` (`osvlab study --shape`), in place of the file's own. */
export function withShape(study: Study, shape: ShapeChoice): Study {
  return { ...study, shape };
}

/** A mode as a key: the same limits in another key order are the same level. */
function modeKey(m: StudyMode): string {
  if (m === 'answer') return 'answer';
  const a = m.agent;
  return `agent ${[a.maxTurns, a.maxCalls, a.verifyAgainst, a.toolTimeoutMs].map((x) => x ?? '').join(' ')}`;
}

type Report = (code: string, message: string, span: Span, notes?: readonly string[]) => void;

/** An object's entries by key; unknown and repeated keys are reported. */
function entriesOf(n: Extract<JsonNode, { kind: 'object' }>, known: readonly string[], what: string, bad: Report): Map<string, JsonNode> {
  const out = new Map<string, JsonNode>();
  for (const e of n.entries as readonly JsonEntry[]) {
    if (out.has(e.key)) bad('STUDY002', `"${e.key}" appears twice in the ${what}`, e.keySpan);
    else if (!known.includes(e.key)) {
      const near = closest(e.key, known);
      bad('STUDY002', `unknown key "${e.key}" in the ${what}`, e.keySpan, [near ? `did you mean "${near}"?` : `the keys of a ${what} are: ${known.join(', ')}`]);
    } else out.set(e.key, e.value);
  }
  return out;
}

/**
 * A factor's levels: a list (or one value), each read by `read`, none
 * repeated. Undefined when the key is absent or nothing valid is left.
 */
function levels<T>(n: JsonNode | undefined, what: string, bad: Report, read: (n: JsonNode) => T | undefined, key: (t: T) => string = String): T[] | undefined {
  if (!n) return undefined;
  const items = n.kind === 'array' ? n.items : [n];
  if (items.length === 0) return void bad('STUDY006', `${what} is an empty list: a factor needs at least one level`, n.span);
  const out: T[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const v = read(item);
    if (v === undefined) continue;
    if (seen.has(key(v))) {
      bad('STUDY006', `${what} lists the same level twice`, item.span);
      continue;
    }
    seen.add(key(v));
    out.push(v);
  }
  return out.length === items.length ? out : undefined;
}

function samplingParams(n: JsonNode | undefined, bad: Report): SamplingParams {
  if (!n) return {};
  if (n.kind !== 'object') {
    bad('STUDY003', `"params" must be an object, not ${kindName(n)}`, n.span);
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of entriesOf(n, PARAM_KEYS, 'params', bad)) {
    if (k === 'reasoningEffort') {
      if (v.kind === 'string' && (REASONING_EFFORTS as readonly string[]).includes(v.value)) out[k] = v.value;
      else bad('STUDY004', `"reasoningEffort" must be one of ${REASONING_EFFORTS.join(', ')}`, v.span);
    } else if (v.kind !== 'number') bad('STUDY003', `"${k}" must be a number, not ${kindName(v)}`, v.span);
    else if ((k === 'maxTokens' || k === 'seed') && !Number.isInteger(v.value)) bad('STUDY007', `"${k}" must be a whole number, got ${v.value}`, v.span);
    else out[k] = v.value;
  }
  return out as SamplingParams;
}

function gradingOf(n: JsonNode | undefined, bad: Report): StudyGrading {
  if (!n) return {};
  if (n.kind !== 'object') {
    bad('STUDY003', `"grading" must be an object, not ${kindName(n)}`, n.span);
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of entriesOf(n, GRADING_KEYS, 'grading', bad)) {
    if (k === 'timeoutMs') {
      if (v.kind === 'number' && Number.isInteger(v.value) && v.value >= 1) out[k] = v.value;
      else bad(v.kind === 'number' ? 'STUDY007' : 'STUDY003', '"timeoutMs" must be a whole number of milliseconds, at least 1', v.span);
    } else if (v.kind === 'boolean') out[k] = v.value;
    else bad('STUDY003', `"${k}" must be true or false, not ${kindName(v)}`, v.span);
  }
  return out as StudyGrading;
}
