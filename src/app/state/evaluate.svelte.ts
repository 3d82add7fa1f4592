/**
 * The Evaluate page's run: its configuration, and the run itself with live
 * progress, pause, unpause, cancel, and continuing a stored run after a
 * reload. The run loop is core/eval's; grading happens in the verifier pool.
 * The provider's settings and key (provider-settings.svelte.ts), the
 * connection test (connection-test.svelte.ts) and the attempts table with
 * its ETA (attempts-table.svelte.ts) are their own objects, held here.
 */
import { AGENT_DEFAULTS, type VerifyAgainst } from '../../core/eval/agent/tools.ts';
import { type Budget, BudgetError, budgetFor, budgetLines } from '../../core/eval/run/budget.ts';
import { RunControl } from '../../core/eval/run/run-control.ts';
import { selectTasks } from '../../core/eval/run/run-setup.ts';
import { type ShardSpec, parseShard } from '../../core/eval/run/shard.ts';
import type { RunProgress } from '../../core/eval/run/runner.ts';
import { type FeedbackMode, type RunConfig, isResumable } from '../../core/eval/run/run-types.ts';
import { DEFAULT_FEEDBACK, DEFAULT_PROMPT, FEEDBACK_MODES, type RunChoice, runChoiceOf } from '../../core/eval/session/config.ts';
import { DEFAULT_RENAME_SEED, RENAME_STYLES, type RenameStyle } from '../../core/rename/choice.ts';
import { DEFAULT_SHAPE_SEED, SHAPE_STYLES, type ShapeStyle } from '../../core/shape/choice.ts';
import { PROMPT_VARIANTS } from '../../core/eval/prompt/variants.ts';
import type { SessionPorts } from '../../core/eval/session/ports.ts';
import { RunSession } from '../../core/eval/session/session.ts';
import { type ProviderKind, REASONING_EFFORTS, type ReasoningEffort, type SamplingParams } from '../../core/llm/types.ts';
import { EXTRACT_MODES, type ExtractMode } from '../../core/eval/grade/answer.ts';
import { FORM_DEFAULTS, formRunOptions, restoredFields } from './evaluate-form.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import { pagePorts, repository } from './page-ports.ts';
import { loadPrices } from '../../store/repository.ts';
import type { VerifierService } from './verifier.svelte.ts';
import { AttemptsTable } from './attempts-table.svelte.ts';
import { ConnectionTest } from './connection-test.svelte.ts';
import { ProviderSettings } from './provider-settings.svelte.ts';
import { destinationOf, sendApproval } from './send-approval.svelte.ts';

export type RunPhase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly runId: string }
  | { readonly kind: 'finished'; readonly runId: string; readonly status: string; readonly message?: string };

/** The run form's fields kept on this device (never the key: that is provider-settings.svelte.ts's, and only when asked). */
const FORM_KEY = 'osvlab.run-form';
const FORM_FIELDS = [
  'selection', 'n', 'shots', 'repairRounds', 'concurrency', 'temperature', 'maxTokens', 'reasoningEffort',
  'extract', 'strict', 'matrix', 'feedback', 'promptVariant', 'names', 'renameSeed', 'shape', 'shapeSeed', 'shard', 'maxCost', 'maxTotalTokens',
] as const;
type FormField = (typeof FORM_FIELDS)[number];
/** The fields with a fixed set of values: a saved value outside it is dropped. */
const FORM_CHOICES: Partial<Record<FormField, readonly unknown[]>> = {
  reasoningEffort: ['', ...REASONING_EFFORTS],
  extract: EXTRACT_MODES,
  feedback: FEEDBACK_MODES,
  promptVariant: PROMPT_VARIANTS,
  names: ['', ...RENAME_STYLES],
  shape: ['', ...SHAPE_STYLES],
};

export class EvaluateState {
  readonly settings = new ProviderSettings();
  readonly connection = new ConnectionTest();
  readonly table = new AttemptsTable();

  selection = $state('first:5');
  n = $state<number>(FORM_DEFAULTS.n);
  shots = $state<number>(FORM_DEFAULTS.shots);
  repairRounds = $state<number>(FORM_DEFAULTS.repairRounds);
  concurrency = $state<number>(FORM_DEFAULTS.concurrency);
  /** Sampling: unset (null) leaves the provider's default; reasoning models accept nothing else (docs/providers.md). */
  temperature = $state<number | null>(null);
  maxTokens = $state<number | null>(null);
  reasoningEffort = $state<ReasoningEffort | ''>('');
  /** How answers are read: OSVLab's way, or exactly as OSVBench's harness does. */
  extract = $state<ExtractMode>('osvlab');
  /** Grading, as the CLI's --no-lemmas and --matrix: the lemma checks on passes, and every answer against all five variants. */
  strict = $state(true);
  matrix = $state(false);
  /** What a repair round tells the model, and the prompt variant (the run session stores them; docs/design.md). */
  feedback = $state<FeedbackMode>(DEFAULT_FEEDBACK);
  promptVariant = $state(DEFAULT_PROMPT);
  /** The names the model is shown (docs/rename.md): '' for hv6's own, or a renaming's style and seed. */
  names = $state<RenameStyle | ''>('');
  renameSeed = $state<number | null>(DEFAULT_RENAME_SEED);
  /** The order the shown code is in (docs/shape.md): '' for the kernel's own, or a shape's style and seed. */
  shape = $state<ShapeStyle | ''>('');
  shapeSeed = $state<number | null>(DEFAULT_SHAPE_SEED);
  runName = $state('');
  /** Shard K/N of the run (empty: the whole run), to merge with shards made elsewhere (docs/scale.md). */
  shard = $state('');
  /** Budget (docs/scale.md): USD and total tokens for the whole run; a budget needs the cap per answer. */
  maxCost = $state<number | null>(null);
  maxTotalTokens = $state<number | null>(null);
  /** The agent mode (docs/research.md, "The agent mode") and its settings, as `osvlab run --agent` takes them. */
  agent = $state(false);
  maxTurns = $state(AGENT_DEFAULTS.maxTurns);
  maxToolCalls = $state(AGENT_DEFAULTS.maxCalls);
  verifyAgainst = $state<VerifyAgainst>(AGENT_DEFAULTS.verifyAgainst);
  toolTimeoutMs = $state(AGENT_DEFAULTS.toolTimeoutMs);

  phase = $state<RunPhase>({ kind: 'idle' });
  /** The configuration of the run being run (a resumed run's own, whatever the form says now). */
  running = $state.raw<RunConfig | undefined>(undefined);
  progress = $state<RunProgress | undefined>(undefined);
  /** Stored runs that did not finish (e.g. the tab was closed): they can be resumed. */
  unfinished = $state.raw<{ id: string; name?: string; model: string }[]>([]);
  /** Why the last Resume sent nothing (the user said no to its host). */
  notice = $state('');
  private control?: RunControl;

  /** ETA (ms) of the running run (attempts-table.svelte.ts). */
  readonly etaMs = $derived(this.table.eta(this.progress));

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
    this.restoreForm();
  }

  /** The run form as it was last left on this device; a saved value that does not fit its field is dropped (evaluate-form.ts). */
  private restoreForm(): void {
    if (typeof localStorage === 'undefined') return;
    let saved: unknown;
    try {
      saved = JSON.parse(localStorage.getItem(FORM_KEY) ?? '{}');
    } catch {
      return;
    }
    const self = this as unknown as Record<FormField, unknown>;
    const current = Object.fromEntries(FORM_FIELDS.map((f) => [f, self[f]])) as Record<FormField, unknown>;
    Object.assign(self, restoredFields(saved, current, FORM_CHOICES));
  }

  /** Keeps the run form on this device (the page calls it whenever a field changes). */
  saveForm(): void {
    const self = this as unknown as Record<FormField, unknown>;
    const values = Object.fromEntries(FORM_FIELDS.map((f) => [f, self[f]]));
    try {
      localStorage.setItem(FORM_KEY, JSON.stringify(values));
    } catch {
      // Storage full or disabled: the form lives until the page closes.
    }
  }

  /** Switches provider: its URL and remembered key, and no connection tested yet. */
  setProvider(kind: ProviderKind): void {
    this.settings.setProvider(kind);
    this.connection.reset();
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

  /** Tests the connection with exactly the sampling parameters a run will send. */
  testConnection(): Promise<void> {
    this.notice = '';
    return this.connection.run(this.settings, this.samplingParams());
  }

  /** What the Start button still lacks, in words; empty when a run can start. */
  async missing(): Promise<string[]> {
    const out: string[] = [];
    await taskCatalog.load();
    if (taskCatalog.tasks.length === 0) out.push('the benchmark tasks (tasks/hv6/tasks.json) are not in this build');
    if (!this.settings.model) out.push('a model name');
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
    // Each field by name: $state fields are accessors on the class, which a spread of `this` would not copy.
    const form = {
      n: this.n, shots: this.shots, repairRounds: this.repairRounds, concurrency: this.concurrency, params: this.samplingParams(),
      extract: this.extract, strict: this.strict, matrix: this.matrix, feedback: this.feedback, promptVariant: this.promptVariant,
      names: this.names, renameSeed: this.renameSeed, shape: this.shape, shapeSeed: this.shapeSeed,
      ...(this.agent ? { agent: { maxTurns: this.maxTurns, maxCalls: this.maxToolCalls, verifyAgainst: this.verifyAgainst, toolTimeoutMs: this.toolTimeoutMs } } : {}),
    };
    return runChoiceOf(formRunOptions(form, this.settings, this.selected.ids, this.verifier.size));
  }

  /**
   * The run session's ports in this page (page-ports.ts): the client gets the
   * key entered for the run's provider and base URL's origin, and no other
   * (docs/providers.md, "Keys in the browser").
   */
  private ports(): Promise<SessionPorts> {
    return pagePorts((kind, baseUrl) => this.settings.keyFor(kind, baseUrl));
  }

  /** Opens the run of the configuration (the stored one when the same experiment exists) and runs it, or the shard the field names. */
  async start(): Promise<void> {
    const { spec: shard, error } = this.shardSpec;
    if (error) throw new Error(error);
    // The page's Start button reflects the last check, which may predate the task bundle's loading:
    // checked again here, a click before the tasks are counted never starts a run of no tasks.
    const lacking = await this.missing();
    if (lacking.length > 0) throw new Error(`A run needs ${lacking.join(', ')}.`);
    const choice = this.choice();
    const session = await RunSession.open(choice, await this.ports(), { name: this.runName || undefined, shard, where: 'this browser' });
    // The user chose this host here: its runs resume without asking.
    const to = destinationOf(choice.provider, choice.baseUrl, () => undefined);
    if (to) sendApproval.approve(to.origin);
    await this.continueRun(session.id);
  }

  /**
   * Whether requests may go to `origin` without asking: the host in the
   * page's Base URL field is the one the user chose (docs/providers.md,
   * "Keys in the browser"); any other must be approved on this device.
   */
  trusted(origin: string): boolean {
    return origin === this.settings.origin;
  }

  /**
   * Runs (or continues) stored run `id`; stored attempts are reused, nothing
   * is sent twice. A run whose host is neither the page's nor approved on
   * this device (a run imported from a file) first asks the user, showing
   * the host and whether their key goes there; nothing is sent before a yes.
   */
  async continueRun(id: string): Promise<void> {
    this.notice = '';
    const run = await repository().getRun(id);
    const to = run && destinationOf(run.config.provider, run.config.baseUrl, (k, u) => this.settings.keyFor(k, u));
    if (to && !(await sendApproval.confirm(`Resume run ${run.name ?? run.id}`, [to], (o) => this.trusted(o)))) {
      this.notice = `Run ${run.name ?? run.id} was not resumed: nothing was sent to ${to.origin}.`;
      return;
    }
    const ports = await this.ports();
    const session = await RunSession.resume(id, ports);
    const stored = session.run;
    this.control = new RunControl();
    this.running = stored.config;
    this.phase = { kind: 'running', runId: id };
    this.progress = undefined;
    this.table.start(Math.max(1, stored.config.concurrency), Math.max(1, Math.min(stored.config.gradeConcurrency, this.verifier.size)));
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
        onAttempt: (e) => this.table.fold(e),
      });
      const spent = budget ? budgetLines(budget, outcome.progress).join('; ') : undefined;
      this.phase = { kind: 'finished', runId: id, status: outcome.status, message: [outcome.error && `${outcome.error.code}: ${outcome.error.message}`, spent].filter(Boolean).join('; ') || undefined };
      this.progress = outcome.progress;
    } catch (e) {
      this.phase = { kind: 'finished', runId: id, status: 'failed', message: e instanceof Error ? e.message : String(e) };
    }
    this.table.stop(this.phase.kind === 'finished' ? this.phase.status : 'done');
    void this.refreshUnfinished();
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
