/**
 * The run file: one JSON document holding a whole run (config, provenance,
 * the tasks it used by id and content hash, every prompt, answer and grade,
 * and its metrics), and the hand-written validator that checks one before it
 * is imported. Errors name the JSON path ("$.attempts[3].response.usage.input").
 * No key or auth header ever goes into a file; `exportRun` refuses data that
 * looks like one.
 */
import { computeMetrics, type RunMetrics, type TaskFacts } from '../stats/metrics.ts';
import { type AttemptRecord, type PromptRecord, type RunRecord, attemptId } from '../run/run-types.ts';
import { BUG_CLASSES } from '../../tasks/task.ts';
import { type ValidationError, array, boolean, count, fail, hex64, literal, newerVersion, nullable, number, object, parseJson, record, string, unknown } from './json-validate.ts';

export { type ValidationError, formatValidationErrors } from './json-validate.ts';

const RUN_FILE_FORMAT = 'osvlab-run';
const RUN_FILE_VERSION = 1;

/** A task as the file refers to it: id and hash, plus the facts metrics need. */
export interface TaskRef extends TaskFacts {
  readonly hash: string;
}

export interface RunFile {
  readonly format: typeof RUN_FILE_FORMAT;
  readonly formatVersion: number;
  /** ISO time of the export. */
  readonly exportedAt: string;
  readonly provenance: {
    readonly app: string;
    readonly verifier: string;
    readonly provider: string;
    readonly baseUrl: string;
    readonly model: string;
    readonly params: Readonly<Record<string, unknown>>;
  };
  readonly run: RunRecord;
  readonly tasks: readonly TaskRef[];
  readonly prompts: readonly PromptRecord[];
  readonly attempts: readonly AttemptRecord[];
  readonly metrics: RunMetrics;
}

/** Field names that only ever hold secrets. */
const SECRET_FIELD = /^(api[-_]?key|apikey|authorization|x-api-key|x-goog-api-key|secret|password|token)$/i;

function findSecretField(v: unknown, path: string): string | undefined {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const f = findSecretField(v[i], `${path}[${i}]`);
      if (f) return f;
    }
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (SECRET_FIELD.test(k)) return `${path}.${k}`;
      const f = findSecretField(x, `${path}.${k}`);
      if (f) return f;
    }
  }
  return undefined;
}

/** Builds the run file. Throws if anything in it is a field that holds a secret. */
export function exportRun(input: {
  readonly run: RunRecord;
  readonly tasks: readonly TaskRef[];
  readonly prompts: readonly PromptRecord[];
  readonly attempts: readonly AttemptRecord[];
  readonly exportedAt: string;
}): RunFile {
  const used = new Set(input.run.config.tasks);
  const tasks = input.tasks
    .filter((t) => used.has(t.id))
    .map((t) => ({ id: t.id, hash: input.run.taskHashes[t.id] ?? t.hash, handler: t.handler, bug_classes: [...t.bug_classes], bug_count: t.bug_count }));
  const attempts = input.attempts.filter((a) => a.runId === input.run.id);
  const file: RunFile = {
    format: RUN_FILE_FORMAT,
    formatVersion: RUN_FILE_VERSION,
    exportedAt: input.exportedAt,
    provenance: {
      app: input.run.provenance.app,
      verifier: input.run.provenance.verifier,
      provider: input.run.config.provider,
      baseUrl: input.run.config.baseUrl,
      model: input.run.config.model,
      params: { ...input.run.config.params },
    },
    run: input.run,
    tasks,
    prompts: input.prompts,
    attempts,
    metrics: computeMetrics(tasks, attempts),
  };
  const secret = findSecretField(file, '$');
  if (secret) throw new Error(`refusing to export: ${secret} looks like a secret`);
  return file;
}

const message = object({ role: literal('system', 'user', 'assistant'), content: string });
const usage = object({ input: count(), output: count() });
const params = object({ 'temperature?': number, 'topP?': number, 'maxTokens?': count(1), 'seed?': number, 'stop?': array(string) });
const provider = literal('openai', 'anthropic', 'gemini', 'openai-compatible');
const storedError = object({ kind: string, code: string, message: string, 'status?': number });
const verdictStatus = literal('verified', 'refuted', 'spec-error', 'timeout', 'unknown');

const gradeCheck = object({
  category: literal('pass', 'syntax', 'semantic', 'timeout', 'unknown', 'internal'),
  extracted: nullable(string),
  'verdict?': object({ status: verdictStatus }),
  'strict?': boolean,
  'bugFollowing?': boolean,
  'matrix?': record(verdictStatus),
  diagnosis: string,
  'internalError?': string,
  ms: number,
});

const runCheck = object({
  id: string,
  'name?': string,
  createdAt: number,
  updatedAt: number,
  config: object({
    provider,
    baseUrl: string,
    model: string,
    params,
    tasks: array(string),
    shots: count(),
    n: count(1),
    repairRounds: count(),
    concurrency: count(1),
    gradeConcurrency: count(1),
    'grading?': object({ timeoutMs: count(), strict: boolean, 'matrix?': boolean }),
    'extract?': literal('osvlab', 'osvbench'),
    'feedback?': literal('counterexample', 'verdict', 'none'),
    'prompt?': string,
    'rename?': object({ style: literal('synonym', 'opaque'), seed: count() }),
    'shape?': object({ style: literal('permuted'), seed: count() }),
    'agent?': object({ maxTurns: count(1), maxCalls: count(), verifyAgainst: literal('shown', 'reference'), toolTimeoutMs: count(1) }),
  }),
  provenance: object({ app: string, verifier: string }),
  taskHashes: record(string),
  status: literal('created', 'running', 'done', 'incomplete', 'cancelled', 'failed'),
  'error?': storedError,
  'source?': object({ format: literal('jsonl', 'osvbench'), file: string }),
  'shard?': object({ index: count(1), total: count(1) }),
  'partial?': string,
  'studies?': array(object({ id: string, name: string, cell: count(), label: string })),
});

const toolCall = object({ id: string, name: string, arguments: string });
const storedResponse = object({
  text: string,
  model: string,
  usage,
  finishReason: literal('stop', 'length', 'content-filter', 'other'),
  'rawFinishReason?': string,
  latencyMs: number,
  'toolCalls?': array(toolCall),
});
const trajectory = object({
  turns: array(
    object({
      response: storedResponse,
      cacheKey: string,
      'cached?': boolean,
      cost: nullable(number),
      results: array(object({ callId: string, name: string, text: string, 'error?': string, 'spec?': string, ms: number })),
      at: number,
    }),
  ),
  'end?': literal('answered', 'submitted', 'turns-exhausted'),
});

const attemptCheck = object({
  id: string,
  runId: string,
  taskId: string,
  sample: count(),
  round: count(),
  promptHash: hex64(),
  cacheKey: string,
  request: object({ provider, baseUrl: string, model: string, params, sample: count() }),
  'response?': storedResponse,
  'cached?': boolean,
  'error?': storedError,
  cost: nullable(number),
  'grade?': gradeCheck,
  createdAt: number,
  'gradedAt?': number,
  'trajectory?': trajectory,
});

const fileCheck = object({
  format: literal(RUN_FILE_FORMAT),
  formatVersion: count(1),
  exportedAt: string,
  provenance: object({ app: string, verifier: string, provider: string, baseUrl: string, model: string, params: unknown }),
  run: runCheck,
  tasks: array(object({ id: string, hash: string, handler: string, bug_classes: array(literal(...BUG_CLASSES)), bug_count: count() })),
  prompts: array(object({ hash: hex64(), 'base?': hex64(), messages: array(message), 'meta?': record(unknown) })),
  attempts: array(attemptCheck),
  metrics: unknown,
});

const MAX_ERRORS = 20;

/** Problems with a stored run record (e.g. a run directory's run.json); empty when it is valid. */
export function validateRunRecord(value: unknown): ValidationError[] {
  const errs: ValidationError[] = [];
  runCheck(value, '$', errs);
  return errs.slice(0, MAX_ERRORS);
}

/** Problems with one stored attempt record; empty when it is valid. */
export function validateAttemptRecord(value: unknown): ValidationError[] {
  const errs: ValidationError[] = [];
  attemptCheck(value, '$', errs);
  return errs.slice(0, MAX_ERRORS);
}

/** All problems with a would-be run file (empty when it is valid). */
export function validateRunFile(value: unknown): ValidationError[] {
  const errs: ValidationError[] = [];
  const newer = newerVersion(value, RUN_FILE_VERSION);
  if (newer) return [newer];
  fileCheck(value, '$', errs);
  if (errs.length > 0) return errs.slice(0, MAX_ERRORS);

  // Shape is right: now the references between parts.
  const f = value as RunFile;
  const taskIds = new Set(f.tasks.map((t) => t.id));
  const promptHashes = new Set(f.prompts.map((p) => p.hash));
  f.run.config.tasks.forEach((id, i) => {
    if (!taskIds.has(id)) fail(errs, `$.run.config.tasks[${i}]`, `task "${id}" is not in $.tasks`);
  });
  if (f.run.shard && f.run.shard.index > f.run.shard.total) fail(errs, '$.run.shard.index', `shard ${f.run.shard.index} of ${f.run.shard.total}: K must be between 1 and N`);
  f.prompts.forEach((p, i) => {
    if (p.base !== undefined && !promptHashes.has(p.base)) fail(errs, `$.prompts[${i}].base`, `prompt ${p.base} is not in $.prompts`);
  });
  const seen = new Set<string>();
  f.attempts.forEach((a, i) => {
    const p = `$.attempts[${i}]`;
    if (a.runId !== f.run.id) fail(errs, `${p}.runId`, `"${a.runId}" is not the run's id "${f.run.id}"`);
    if (!taskIds.has(a.taskId)) fail(errs, `${p}.taskId`, `task "${a.taskId}" is not in $.tasks`);
    if (!promptHashes.has(a.promptHash)) fail(errs, `${p}.promptHash`, `prompt ${a.promptHash} is not in $.prompts`);
    const want = attemptId(a.runId, a.taskId, a.sample, a.round);
    if (a.id !== want) fail(errs, `${p}.id`, `expected "${want}" for this run, task, sample and round`);
    if (seen.has(a.id)) fail(errs, `${p}.id`, `duplicate attempt "${a.id}"`);
    seen.add(a.id);
    // An agent trajectory in progress has turns but no answer yet.
    if (!a.response && !a.error && !a.trajectory?.turns.length) fail(errs, p, 'has neither a response nor an error');
    if (a.grade && !a.response) fail(errs, `${p}.grade`, 'a grade without a response');
  });
  const secret = findSecretField(value, '$');
  if (secret) fail(errs, secret, 'looks like a secret; run files never hold keys');
  return errs.slice(0, MAX_ERRORS);
}

export type RunFileParse = { readonly ok: true; readonly file: RunFile } | { readonly ok: false; readonly errors: readonly ValidationError[] };

/** Parses and validates the text of a run file. */
export function parseRunFile(text: string): RunFileParse {
  const json = parseJson(text);
  if (!json.ok) return json;
  const errors = validateRunFile(json.value);
  return errors.length === 0 ? { ok: true, file: json.value as RunFile } : { ok: false, errors };
}

