/**
 * The Evaluate page: provider settings (the key stays in memory unless the
 * user asks to remember it on this device), a connection test, the run
 * configuration, and the run itself with live progress, pause, resume,
 * cancel, and resume after a reload. The run loop is core/bench's; grading
 * happens in the verifier pool.
 */
import { type Budget, BudgetError, budgetFor, budgetLines } from '../../core/bench/budget.ts';
import { RunControl, type RunProgress, createRun, runBenchmark, selectTasks } from '../../core/bench/runner.ts';
import type { RunConfig } from '../../core/bench/run-types.ts';
import { LlmClient } from '../../core/llm/client.ts';
import { isLlmError } from '../../core/llm/errors.ts';
import { createProvider } from '../../core/llm/provider.ts';
import type { ProviderKind } from '../../core/llm/types.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import { APP_VERSION } from '../lib/version.ts';
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
  temperature = $state(0);
  runName = $state('');
  /** Budget (docs/scale.md): USD and total tokens for the whole run; a budget needs the cap per answer. */
  maxCost = $state<number | null>(null);
  maxTotalTokens = $state<number | null>(null);
  maxTokens = $state<number | null>(null);

  phase = $state<RunPhase>({ kind: 'idle' });
  progress = $state<RunProgress | undefined>(undefined);
  /** Stored runs that did not finish (e.g. the tab was closed): they can be resumed. */
  unfinished = $state.raw<{ id: string; name?: string; model: string }[]>([]);
  private control?: RunControl;

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
      if (saved.provider) this.provider = saved.provider;
      if (saved.baseUrl) this.baseUrl = saved.baseUrl;
      if (saved.model) this.model = saved.model;
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

  /** Sends one tiny request to check the URL, key and model. */
  async testConnection(): Promise<void> {
    this.connection = { kind: 'testing' };
    try {
      const provider = createProvider({ kind: this.provider, baseUrl: this.baseUrl, apiKey: this.apiKey || undefined, timeoutMs: 30_000 });
      const c = await provider.complete({ model: this.model, messages: [{ role: 'user', content: 'Reply with the word OK.' }], maxTokens: 8 });
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
      .filter((r) => r.status === 'running' || r.status === 'created')
      .filter((r) => this.phase.kind !== 'running' || this.phase.runId !== r.id)
      .map((r) => ({ id: r.id, name: r.name, model: r.config.model }));
  }

  /** Creates a run from the configuration and starts it. */
  async start(): Promise<void> {
    const config: RunConfig = {
      provider: this.provider,
      baseUrl: this.baseUrl,
      model: this.model,
      params: { temperature: this.temperature, ...(this.maxTokens ? { maxTokens: this.maxTokens } : {}) },
      tasks: this.selected.ids,
      shots: this.shots,
      n: this.n,
      repairRounds: this.repairRounds,
      concurrency: this.concurrency,
      gradeConcurrency: this.verifier.pool.size,
    };
    const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 6)}`;
    const run = createRun({
      id,
      name: this.runName || undefined,
      config,
      provenance: { app: APP_VERSION, verifier: APP_VERSION },
      tasks: taskCatalog.tasks,
      now: Date.now(),
    });
    await repository().putRun(run);
    await this.resume(id);
  }

  /** Runs (or continues) stored run `id`; stored attempts are reused, nothing is sent twice. */
  async resume(id: string): Promise<void> {
    const { promptBuilder, buildRepairPrompt } = await import('../../core/bench/prompt.ts');
    await taskCatalog.load();
    const TASKS = taskCatalog.tasks;
    const stored = await repository().getRun(id);
    if (!stored) throw new Error(`No run "${id}".`);
    this.control = new RunControl();
    this.phase = { kind: 'running', runId: id };
    this.progress = undefined;
    void this.refreshUnfinished();
    await this.verifier.warm();
    try {
      const provider = createProvider({ kind: stored.config.provider, baseUrl: stored.config.baseUrl, apiKey: this.apiKey || undefined });
      const budget = await this.budgetOf(id);
      const outcome = await runBenchmark(id, {
        tasks: TASKS,
        buildPrompt: promptBuilder(TASKS),
        buildRepairPrompt,
        grade: (task, text) => {
          const variants = TASKS.filter((t) => t.handler === task.handler);
          return this.verifier.pool.run((api) => api.grade(task, text, { timeoutMs: 30_000, variants, strict: true }), { hardTimeoutMs: 600_000 });
        },
        client: new LlmClient({ provider, cache: repository(), concurrency: stored.config.concurrency }),
        store: repository(),
        control: this.control,
        budget,
        onProgress: (p) => (this.progress = p),
      });
      const spent = budget ? budgetLines(budget, outcome.progress).join('; ') : undefined;
      this.phase = { kind: 'finished', runId: id, status: outcome.status, message: [outcome.error?.message, spent].filter(Boolean).join('; ') || undefined };
      this.progress = outcome.progress;
    } catch (e) {
      this.phase = { kind: 'finished', runId: id, status: 'failed', message: e instanceof Error ? e.message : String(e) };
    }
    void this.refreshUnfinished();
  }

  /** The budget of the fields for stored run `id` (what it already spent counts), or undefined without limits. */
  private async budgetOf(id: string): Promise<Budget | undefined> {
    const maxCostUsd = this.maxCost || this.maxCost === 0 ? this.maxCost : undefined;
    const maxTotalTokens = this.maxTotalTokens || this.maxTotalTokens === 0 ? this.maxTotalTokens : undefined;
    if (maxCostUsd === undefined && maxTotalTokens === undefined) return undefined;
    const run = (await repository().getRun(id))!;
    const { promptTokens } = await import('../../core/bench/tokens.ts');
    try {
      const cfg = { model: run.config.model, baseUrl: run.config.baseUrl, outputCap: run.config.params.maxTokens };
      return budgetFor({ maxCostUsd, maxTotalTokens }, cfg, await loadPrices(repository()), await repository().listAttempts(id), promptTokens);
    } catch (e) {
      throw e instanceof BudgetError ? new Error(`${e.message}: set "Cap per answer" when you start the run`) : e;
    }
  }

  pause(): void {
    this.control?.pause();
    if (this.progress) this.progress = { ...this.progress, paused: true };
  }

  resumeRunning(): void {
    this.control?.resume();
    if (this.progress) this.progress = { ...this.progress, paused: false };
  }

  cancel(): void {
    this.control?.cancel();
  }
}
