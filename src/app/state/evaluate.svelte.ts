/**
 * The Evaluate page: provider settings (the key stays in memory unless the
 * user asks to remember it on this device), a connection test, the run
 * configuration, and the run itself with live progress, pause, resume,
 * cancel, and resume after a reload. The run loop is core/eval's; grading
 * happens in the verifier pool.
 */
import { type Budget, BudgetError, budgetFor, budgetLines } from '../../core/eval/run/budget.ts';
import { RunControl } from '../../core/eval/run/run-control.ts';
import { selectTasks } from '../../core/eval/run/run-setup.ts';
import { type ShardSpec, parseShard } from '../../core/eval/run/shard.ts';
import type { AttemptEvent, RunProgress } from '../../core/eval/run/runner.ts';
import { type FeedbackMode, type RunConfig, isResumable } from '../../core/eval/run/run-types.ts';
import { DEFAULT_FEEDBACK, DEFAULT_PROMPT, type RunChoice } from '../../core/eval/session/config.ts';
import type { SessionPorts } from '../../core/eval/session/ports.ts';
import { RunSession } from '../../core/eval/session/session.ts';
import { LlmClient } from '../../core/llm/client.ts';
import { isLlmError } from '../../core/llm/errors.ts';
import { createProvider } from '../../core/llm/provider.ts';
import { PROVIDER_KINDS, type ProviderKind, type ReasoningEffort, type SamplingParams } from '../../core/llm/types.ts';
import type { ExtractMode } from '../../core/eval/grade/answer.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import { repository } from './runs.svelte.ts';
import { loadPrices } from '../../store/repository.ts';
import type { VerifierService } from './verifier.svelte.ts';


const DEFAULT_URLS: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
  'openai-compatible': 'http://localhost:11434/v1',
};

const SETTINGS_KEY = 'osvlab.provider';
const keyStorageKey = (kind: ProviderKind) => `osvlab.key.${kind}`;

export type Connection =
  | { readonly kind: 'idle' }
  | { readonly kind: 'testing' }
  | { readonly kind: 'ok'; readonly model: string; readonly latencyMs: number }
  | { readonly kind: 'failed'; readonly message: string };

export type RunPhase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly runId: string }
  | { readonly kind: 'finished'; readonly runId: string; readonly status: string; readonly message?: string };

/** What the attempts table shows for one attempt while a run is live. */
export interface AttemptStatus {
  readonly id: string;
  readonly taskId: string;
  readonly sample: number;
  readonly round: number;
  readonly state: 'sent' | 'retrying' | 'answered' | 'failed' | 'grading' | 'graded';
  /** The reason and wait of a retry, the provider's error message, the grade, "from cache". */
  readonly detail: string;
  readonly cached: boolean;
  readonly sentAt?: number;
  /** When a retrying attempt sends again. */
  readonly retryAt?: number;
}

/** Measured rates of this session, for the ETA. */
interface Rates {
  answers: number;
  answerMs: number;
  grades: number;
  gradeMs: number;
}

export class EvaluateState {
  provider = $state<ProviderKind>('openai');
  baseUrl = $state(DEFAULT_URLS.openai);
  model = $state('');
  /** The API key: in memory only, unless `remember` is on. */
  apiKey = $state('');
  remember = $state(false);
  connection = $state<Connection>({ kind: 'idle' });

  selection = $state('first:5');
  n = $state(1);
  shots = $state(0);
  repairRounds = $state(0);
  concurrency = $state(4);
  /** Sampling: unset (null) leaves the provider's default; reasoning models accept nothing else (docs/providers.md). */
  temperature = $state<number | null>(null);
  maxTokens = $state<number | null>(null);
  reasoningEffort = $state<ReasoningEffort | ''>('');
  /** How answers are read: OSVLab's way, or exactly as OSVBench's harness does. */
  extract = $state<ExtractMode>('osvlab');
  /** Grading, as the CLI's --no-strict and --matrix: the declarative checks on passes, and every answer against all five variants. */
  strict = $state(true);
  matrix = $state(false);
  /** What a repair round tells the model, and the prompt variant (the run session stores them; docs/design.md). */
  feedback = $state<FeedbackMode>(DEFAULT_FEEDBACK);
  promptVariant = $state(DEFAULT_PROMPT);
  runName = $state('');
  /** Shard K/N of the run (empty: the whole run), to merge with shards made elsewhere (docs/scale.md). */
  shard = $state('');
  /** Budget (docs/scale.md): USD and total tokens for the whole run; a budget needs the cap per answer. */
  maxCost = $state<number | null>(null);
  maxTotalTokens = $state<number | null>(null);

  phase = $state<RunPhase>({ kind: 'idle' });
  progress = $state<RunProgress | undefined>(undefined);
  /** Live status of each attempt of the running run, newest activity first in `attemptList`. */
  attempts = $state<Record<string, AttemptStatus>>({});
  /** Ticks once a second while a run is live (retry countdowns, ETA). */
  now = $state(Date.now());
  private rates: Rates = { answers: 0, answerMs: 0, grades: 0, gradeMs: 0 };
  private ticker?: ReturnType<typeof setInterval>;
  private gradeConcurrency = 1;
  private requestConcurrency = 1;
  /** Stored runs that did not finish (e.g. the tab was closed): they can be resumed. */
  unfinished = $state.raw<{ id: string; name?: string; model: string }[]>([]);
  private control?: RunControl;

  readonly attemptList = $derived(Object.values(this.attempts).sort((a, b) => (b.sentAt ?? 0) - (a.sentAt ?? 0)));
  readonly counts = $derived.by(() => {
    const c = { sent: 0, retrying: 0, answered: 0, failed: 0, grading: 0, graded: 0, cached: 0 };
    for (const a of Object.values(this.attempts)) {
      c[a.state]++;
      if (a.cached) c.cached++;
    }
    return c;
  });

  /**
   * ETA (ms) from the rates measured in this session: the runner's chain pace
   * once a chain has finished, before that the measured answer latency and
   * grading time spread over the requests and graders at work.
   */
  readonly etaMs = $derived.by(() => {
    const p = this.progress;
    if (!p) return null;
    if (p.etaMs !== null) return p.etaMs;
    const r = this.rates;
    void this.now;
    if (r.answers === 0) return null;
    const remaining = p.total - p.done;
    const perAnswer = r.answerMs / r.answers / this.requestConcurrency;
    const perGrade = r.grades ? r.gradeMs / r.grades / this.gradeConcurrency : perAnswer;
    return Math.round(remaining * Math.max(perAnswer, perGrade) + Math.min(perAnswer, perGrade));
  });

  /** The shard the field names, or why it names none. */
  readonly shardSpec = $derived.by((): { readonly spec?: ShardSpec; readonly error: string } => {
    const text = this.shard.trim();
    if (text === '') return { error: '' };
    try {
      // "env" is for batch engines; a page has no environment to read it from.
      if (text !== 'env') return { spec: parseShard(text), error: '' };
    } catch {
      // The message below says what a shard is, without the CLI's flag.
    }
    return { error: `shard must be K/N with 1 <= K <= N (e.g. 2/4), got "${text}"` };
  });

  readonly selected = $derived.by(() => {
    try {
      return { ids: selectTasks(taskCatalog.tasks, this.selection), error: '' };
    } catch (e) {
      return { ids: [] as string[], error: e instanceof Error ? e.message : String(e) };
    }
  });

  constructor(private readonly verifier: VerifierService) {
    if (typeof localStorage === 'undefined') return;
    try {
      const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Partial<{ provider: ProviderKind; baseUrl: string; model: string }>;
      // Settings are the user's storage: a provider that is not one of ours is ignored.
      if (saved.provider && (PROVIDER_KINDS as readonly string[]).includes(saved.provider)) this.provider = saved.provider;
      if (typeof saved.baseUrl === 'string' && saved.baseUrl) this.baseUrl = saved.baseUrl;
      if (typeof saved.model === 'string' && saved.model) this.model = saved.model;
    } catch {
      // Damaged settings: start from the defaults.
    }
    const key = localStorage.getItem(keyStorageKey(this.provider));
    if (key) {
      this.apiKey = key;
      this.remember = true;
    }
  }

  setProvider(kind: ProviderKind): void {
    this.provider = kind;
    this.baseUrl = DEFAULT_URLS[kind];
    const key = localStorage.getItem(keyStorageKey(kind));
    this.apiKey = key ?? '';
    this.remember = key !== null;
    this.connection = { kind: 'idle' };
    this.saveSettings();
  }

  /** Saves provider, URL and model (never the key) for next time. */
  saveSettings(): void {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ provider: this.provider, baseUrl: this.baseUrl, model: this.model }));
  }

  /** Applies "remember on this device": stores or forgets the key. */
  applyRemember(): void {
    if (this.remember && this.apiKey) localStorage.setItem(keyStorageKey(this.provider), this.apiKey);
    else localStorage.removeItem(keyStorageKey(this.provider));
  }

  /** The sampling parameters the user set (empty fields are left out, so the provider's defaults apply). */
  samplingParams(): SamplingParams {
    const num = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const out: { -readonly [K in keyof SamplingParams]: SamplingParams[K] } = {};
    const t = num(this.temperature);
    const m = num(this.maxTokens);
    if (t !== undefined) out.temperature = t;
    if (m !== undefined && m >= 1) out.maxTokens = Math.floor(m);
    if (this.reasoningEffort) out.reasoningEffort = this.reasoningEffort;
    return out;
  }

  /** Sends one small request with exactly the sampling parameters a run will send, to check the URL, key, model and parameters. */
  async testConnection(): Promise<void> {
    this.connection = { kind: 'testing' };
    try {
      const provider = createProvider({ kind: this.provider, baseUrl: this.baseUrl, apiKey: this.apiKey || undefined, timeoutMs: 120_000 });
      const c = await provider.complete({ model: this.model, messages: [{ role: 'user', content: 'Reply with the word OK.' }], ...this.samplingParams() });
      this.connection = { kind: 'ok', model: c.model, latencyMs: c.latencyMs };
    } catch (e) {
      this.connection = { kind: 'failed', message: isLlmError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e) };
    }
  }

  /** What the Start button still lacks, in words; empty when a run can start. */
  async missing(): Promise<string[]> {
    const out: string[] = [];
    await taskCatalog.load();
    if (taskCatalog.tasks.length === 0) out.push('the benchmark tasks (tasks/hv6/tasks.json) are not in this build');
    if (!this.model) out.push('a model name');
    if (this.selected.ids.length === 0) out.push('at least one task');
    return out;
  }

  async refreshUnfinished(): Promise<void> {
    const runs = await repository().listRuns();
    this.unfinished = runs
      .filter((r) => isResumable(r.status) && !r.source)
      .filter((r) => this.phase.kind !== 'running' || this.phase.runId !== r.id)
      .map((r) => ({ id: r.id, name: r.name, model: r.config.model }));
  }

  /** The run the fields describe, as the CLI's `run` would describe it with the same options. */
  choice(): RunChoice {
    return {
      provider: this.provider,
      // As the client will use it (a bare local host gets /v1).
      baseUrl: createProvider({ kind: this.provider, baseUrl: this.baseUrl }).baseUrl,
      model: this.model,
      params: this.samplingParams(),
      tasks: this.selected.ids,
      shots: this.shots,
      n: this.n,
      repairRounds: this.repairRounds,
      concurrency: this.concurrency,
      gradeConcurrency: this.verifier.pool.size,
      ...(this.extract === 'osvbench' ? { extract: this.extract } : {}),
      grading: { strict: this.strict, matrix: this.matrix },
      feedback: this.feedback,
      prompt: this.promptVariant,
    };
  }

  /** The run session's ports in this page: the IndexedDB store, the verifier pool, a client with the key in memory. */
  private async ports(): Promise<SessionPorts> {
    await taskCatalog.load();
    return {
      tasks: taskCatalog.tasks,
      store: repository(),
      grader: (task, text, options) => this.verifier.pool.grade(task, text, options),
      client: (config: RunConfig) =>
        new LlmClient({ provider: createProvider({ kind: config.provider, baseUrl: config.baseUrl, apiKey: this.apiKey || undefined }), cache: repository(), concurrency: config.concurrency }),
    };
  }

  /** Opens the run of the configuration (the stored one when the same experiment exists) and runs it, or the shard the field names. */
  async start(): Promise<void> {
    const { spec: shard, error } = this.shardSpec;
    if (error) throw new Error(error);
    // The page's Start button reflects the last check, which may predate the task bundle's loading:
    // checked again here, a click before the tasks are counted never starts a run of no tasks.
    const lacking = await this.missing();
    if (lacking.length > 0) throw new Error(`A run needs ${lacking.join(', ')}.`);
    const session = await RunSession.open(this.choice(), await this.ports(), { name: this.runName || undefined, shard, where: 'this browser' });
    await this.continueRun(session.id);
  }

  /** Runs (or continues) stored run `id`; stored attempts are reused, nothing is sent twice. */
  async continueRun(id: string): Promise<void> {
    const ports = await this.ports();
    const session = await RunSession.resume(id, ports);
    const stored = session.run;
    this.control = new RunControl();
    this.phase = { kind: 'running', runId: id };
    this.progress = undefined;
    this.attempts = {};
    this.rates = { answers: 0, answerMs: 0, grades: 0, gradeMs: 0 };
    this.requestConcurrency = Math.max(1, stored.config.concurrency);
    this.gradeConcurrency = Math.max(1, Math.min(stored.config.gradeConcurrency, this.verifier.pool.size));
    clearInterval(this.ticker);
    this.ticker = setInterval(() => (this.now = Date.now()), 1000);
    void this.refreshUnfinished();
    // Requests need no verifier, and a grade waits for its worker in the pool:
    // loading Z3 overlaps the first requests instead of delaying them.
    void this.verifier.warm();
    try {
      const budget = await this.budgetOf(id);
      const outcome = await session.execute({
        control: this.control,
        budget,
        prices: await loadPrices(repository()),
        onProgress: (p) => (this.progress = p),
        onAttempt: (e) => this.onAttempt(e),
      });
      const spent = budget ? budgetLines(budget, outcome.progress).join('; ') : undefined;
      this.phase = { kind: 'finished', runId: id, status: outcome.status, message: [outcome.error?.message, spent].filter(Boolean).join('; ') || undefined };
      this.progress = outcome.progress;
    } catch (e) {
      this.phase = { kind: 'finished', runId: id, status: 'failed', message: e instanceof Error ? e.message : String(e) };
    }
    clearInterval(this.ticker);
    void this.refreshUnfinished();
  }

  /** Folds one runner event into the attempts table and the measured rates. */
  private onAttempt(e: AttemptEvent): void {
    const prev = this.attempts[e.id];
    const base = { id: e.id, taskId: e.taskId, sample: e.sample, round: e.round, cached: prev?.cached ?? false, sentAt: prev?.sentAt };
    let next: AttemptStatus;
    switch (e.kind) {
      case 'sent':
        next = { ...base, state: 'sent', detail: 'waiting for the answer', sentAt: e.at };
        break;
      case 'retrying':
        next = { ...base, state: 'retrying', detail: `retry ${e.retry} in ${(e.waitMs / 1000).toFixed(1)} s after ${e.reason}`, retryAt: e.at + e.waitMs };
        break;
      case 'answered':
        if (!e.cached) {
          this.rates.answers++;
          this.rates.answerMs += base.sentAt !== undefined ? e.at - base.sentAt : e.latencyMs;
        }
        next = {
          ...base,
          state: 'answered',
          cached: e.cached,
          detail: e.cached ? 'from the response cache (not sent, not charged)' : `${e.tokens.input}/${e.tokens.output} tokens in ${e.latencyMs} ms`,
        };
        break;
      case 'failed':
        next = { ...base, state: 'failed', detail: `${e.code}: ${e.message}` };
        break;
      case 'grading':
        next = { ...base, state: 'grading', detail: prev?.cached ? 'from the response cache; verifying' : 'verifying' };
        break;
      case 'graded':
        this.rates.grades++;
        this.rates.gradeMs += e.ms;
        next = { ...base, state: 'graded', detail: `${e.category}${prev?.cached ? ' (cached answer)' : ''} · graded in ${(e.ms / 1000).toFixed(1)} s` };
        break;
    }
    this.attempts[e.id] = next;
  }

  /** The budget of the fields for stored run `id` (what it already spent counts), or undefined without limits. */
  private async budgetOf(id: string): Promise<Budget | undefined> {
    const maxCostUsd = this.maxCost || this.maxCost === 0 ? this.maxCost : undefined;
    const maxTotalTokens = this.maxTotalTokens || this.maxTotalTokens === 0 ? this.maxTotalTokens : undefined;
    if (maxCostUsd === undefined && maxTotalTokens === undefined) return undefined;
    const run = (await repository().getRun(id))!;
    const { promptTokens } = await import('../../core/eval/prompt/tokens.ts');
    try {
      const cfg = { model: run.config.model, baseUrl: run.config.baseUrl, outputCap: run.config.params.maxTokens };
      return budgetFor({ maxCostUsd, maxTotalTokens }, cfg, await loadPrices(repository()), await repository().listAttempts(id), promptTokens);
    } catch (e) {
      throw e instanceof BudgetError ? new Error(`${e.message}: set "Max output tokens" when you start the run`) : e;
    }
  }

  pause(): void {
    this.control?.pause();
    if (this.progress) this.progress = { ...this.progress, paused: true };
  }

  unpause(): void {
    this.control?.resume();
    if (this.progress) this.progress = { ...this.progress, paused: false };
  }

  cancel(): void {
    this.control?.cancel();
  }
}
