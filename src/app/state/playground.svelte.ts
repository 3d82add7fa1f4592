/**
 * The playground's state: which handler and implementation variant, the spec
 * being written, live diagnostics, the running verification and its verdict,
 * the variant matrix, and autosave. Components only read and call this.
 */
import type { Diagnostic } from '../../core/diagnostic.ts';
import type { VerifyRequest } from '../../core/verify/index.ts';
import type { Verdict, VerdictStatus } from '../../core/verify/verdict.ts';
import { findHandler } from '../../core/kernel/handlers.ts';
import { CancelledError } from '../../worker/web-pool.ts';
import * as content from '../lib/content.ts';
import { drafts, settings } from '../lib/db.ts';
import { fixLineSoon, loadFixLine } from '../lib/fix-line-soon.svelte.ts';
import { type SharedState, ShareLinkError, decodeShared, shareRoute, shareUrl } from '../lib/share.ts';
import { APP_VERSION } from '../lib/version.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import type { VerifierService } from './verifier.svelte.ts';

export type VerificationState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly startedAt: number }
  /** `spec` and `variant` are what was verified, to tell when the verdict is stale. */
  | { readonly kind: 'done'; readonly verdict: Verdict; readonly ms: number; readonly spec: string; readonly variant: string; readonly strict: boolean }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'error'; readonly message: string };

export interface MatrixCell {
  readonly variant: content.Variant;
  spec?: VerdictStatus;
  oracle?: VerdictStatus;
}

const LANE = 'playground';
const CHECK_DELAY_MS = 200;
const SAVE_DELAY_MS = 400;

export class PlaygroundState {
  handler = $state('sys_kill');
  variant = $state('');
  spec = $state('');
  timeoutMs = $state(30_000);
  strict = $state(false);
  showReference = $state(false);
  revealBug = $state(false);
  diagnostics = $state.raw<readonly Diagnostic[]>([]);
  verification = $state<VerificationState>({ kind: 'idle' });
  /** Ticks while a verification runs, for the elapsed-time display. */
  now = $state(Date.now());
  matrix = $state<MatrixCell[]>([]);
  matrixRunning = $state(false);
  /** Where the spec editor should scroll to; `n` changes on every request; `focus: false` leaves the focus where it is. */
  reveal = $state<{ line: number; n: number; focus?: boolean }>({ line: 0, n: 0 });
  /** Set when the spec came from a share link (or a run's attempt) and has not been edited since. */
  sharedFrom = $state<SharedState | undefined>(undefined);
  /** Where a shown spec came from when it is not a share link: a run's attempt, in words. */
  openedFrom = $state('');
  /** The share route (`s/…`) openAttempt last opened: its address, once the router reaches it, opens nothing again. */
  private openedRoute = '';
  /** The draft has been restored (or created) for the current handler. */
  loaded = $state(false);
  savedAt = $state(0);
  /** How many verifications have finished in this tab (for the results' `data-runs`). */
  finished = $state(0);

  readonly variants = $derived(content.variants(this.handler, taskCatalog.tasks));
  readonly currentVariant = $derived(this.variants.find((v) => v.id === this.variant) ?? this.variants[0]);
  readonly code = $derived(content.implementationCode(this.handler, this.currentVariant?.task));
  readonly correctCode = $derived(content.implementationCode(this.handler, this.variants[0]?.task));
  readonly reference = $derived(content.oracleSpec(this.handler));
  readonly info = $derived(findHandler(this.handler));
  readonly running = $derived(this.verification.kind === 'running');
  /** The verdict on screen is for another spec, variant or mode than the one shown now. */
  readonly stale = $derived(
    this.verification.kind === 'done' && (this.verification.spec !== this.spec || this.verification.variant !== this.variant || this.verification.strict !== this.strict),
  );
  /** The line of the handler's definition in the shown C code (1-based; 0 if not found). */
  readonly handlerLine = $derived(definitionLine(this.code, this.handler));

  private checkTimer?: ReturnType<typeof setTimeout>;
  private saveTimer?: ReturnType<typeof setTimeout>;
  private ticker?: ReturnType<typeof setInterval>;
  private checkSeq = 0;
  private matrixSeq = 0;
  /** Bumped by every switch of handler or spec source, so a slow draft load cannot overwrite a newer choice. */
  private generation = 0;
  /** Something (a restore, a task, a share link) already chose what to show. */
  private chosen = false;

  private showFirst!: () => void;
  /**
   * Resolves once the playground shows its first verdict, or knows it has
   * none to show yet (a draft restored, a share link that did not open), or
   * once Z3 is loading (the verdict needs it, or the page asked for it: from
   * then on the network is Z3's). On a share link what the verdict does not
   * need (the task bundle, Z3, the storage's code, the lint worker) waits for
   * it: on a phone it would share the network and the CPU with it
   * (docs/app.md, "Loading Z3").
   */
  readonly firstShown = new Promise<void>((r) => (this.showFirst = r));

  constructor(private readonly verifier: VerifierService) {
    $effect.root(() => {
      $effect(() => {
        if (verifier.status.kind !== 'idle') this.showFirst();
      });
    });
  }

  /** Restores the last handler and its draft; the task variants arrive when the task bundle has loaded. */
  async restore(): Promise<void> {
    if (this.chosen) return;
    void taskCatalog.load();
    const last = await settings.get<{ handler?: string; variant?: string }>('playground.last', {});
    await this.select(last.handler && findHandler(last.handler) ? last.handler : this.handler, last.variant);
  }

  /** Switches to `handler`, loading its saved draft or a skeleton. */
  async select(handler: string, variant?: string): Promise<void> {
    this.flushSave();
    this.chosen = true;
    const gen = ++this.generation;
    this.loaded = false;
    this.handler = handler;
    this.cancel();
    this.verification = { kind: 'idle' };
    this.matrix = [];
    this.revealBug = false;
    this.sharedFrom = undefined;
    const draft = await drafts.get(handler);
    if (gen !== this.generation) return;
    this.spec = draft?.spec ?? content.skeletonSpec(handler);
    // Kept even when the tasks have not loaded yet: currentVariant falls back to the correct one until they do.
    this.variant = variant ?? draft?.variant ?? this.variants[0].id;
    this.loaded = true;
    this.savedAt = draft?.updatedAt ?? 0;
    void settings.put('playground.last', { handler, variant: this.variant });
    this.scheduleCheck();
    this.showFirst();
  }

  setVariant(id: string): void {
    this.variant = id;
    this.leaveShared();
    void settings.put('playground.last', { handler: this.handler, variant: id });
    this.scheduleSave();
  }

  /**
   * The user changed what a share link showed: from now on it is their draft
   * (saved), and the address no longer names the link.
   */
  private leaveShared(): void {
    if (this.sharedFrom) void settings.put('playground.last', { handler: this.handler, variant: this.variant });
    this.sharedFrom = undefined;
    this.onOwnEdit?.();
  }

  /** Called on every edit of the spec or variant (the page drops a share link from the address). */
  onOwnEdit?: () => void;

  /** The editor changed the spec text. */
  edit(text: string): void {
    if (text === this.spec) return;
    this.spec = text;
    this.leaveShared();
    this.scheduleCheck();
    this.scheduleSave();
  }

  private scheduleCheck(): void {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => void this.checkNow(), CHECK_DELAY_MS);
  }

  /** Runs the checker now; only the newest answer is kept. */
  async checkNow(): Promise<void> {
    const seq = ++this.checkSeq;
    const spec = this.spec;
    const handler = this.handler;
    try {
      const diags = await this.verifier.check(spec, handler);
      if (seq === this.checkSeq) this.diagnostics = diags;
    } catch {
      if (seq === this.checkSeq) this.diagnostics = [];
    }
  }

  private scheduleSave(): void {
    if (this.sharedFrom) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save(), SAVE_DELAY_MS);
  }

  private flushSave(): void {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      void this.save();
    }
  }

  /** Autosaves the current draft for the current handler. */
  async save(): Promise<void> {
    this.saveTimer = undefined;
    if (!this.loaded) return;
    const updatedAt = Date.now();
    await drafts.put({ handler: this.handler, spec: this.spec, variant: this.variant, updatedAt });
    this.savedAt = updatedAt;
  }

  /** The skeleton of the current handler, what Reset puts back. */
  get skeleton(): string {
    return content.skeletonSpec(this.handler);
  }

  /**
   * Throws the draft away and starts again from the skeleton. The editor
   * replaces its text as one undoable edit, so Ctrl+Z brings the draft back
   * (and saves it again).
   */
  async resetDraft(): Promise<void> {
    await drafts.remove(this.handler);
    this.edit(this.skeleton);
  }

  /** The request to verify `spec` against implementation `variant` within this page's time limit (with the lemma checks when `strict` says so). */
  private request(spec: string, variant: content.Variant | undefined, strict?: boolean): VerifyRequest {
    return { handler: this.handler, spec, implSource: content.implSourceOf(variant?.task), timeoutMs: this.timeoutMs, ...(strict === undefined ? {} : { strict }) };
  }

  /** Verifies the spec against the selected variant. A newer call supersedes a running one. */
  async verify(): Promise<void> {
    const startedAt = Date.now();
    this.verification = { kind: 'running', startedAt };
    this.now = startedAt;
    clearInterval(this.ticker);
    this.ticker = setInterval(() => (this.now = Date.now()), 100);
    const asked = { spec: this.spec, variant: this.variant, strict: this.strict };
    const req = this.request(this.spec, this.currentVariant, this.strict);
    const current = () => this.verification.kind === 'running' && this.verification.startedAt === startedAt;
    try {
      // The service's policy: a verdict that takes no query does not wait for Z3's wasm to compile (1.5 s in Firefox and WebKit on every visit).
      const verdict = await this.verifier.verify(req, { lane: LANE });
      if (current()) {
        this.verification = { kind: 'done', verdict, ms: Date.now() - startedAt, ...asked };
        this.finished++;
        // On the browser's timeline (a profiler's User Timing track); perf/app-load.ts counts the bytes requested before the first one.
        performance.mark('osvlab:verdict', { detail: { handler: this.handler, status: verdict.status, ms: this.verification.ms } });
        // When it was painted: the frame after it, once that frame's work is done (perf/app-load.ts).
        if (!performance.getEntriesByName('osvlab:paint', 'mark').length) requestAnimationFrame(() => setTimeout(() => performance.mark('osvlab:paint')));
        if (verdict.status === 'spec-error') this.reveal = { line: verdict.error.span.line, n: this.reveal.n + 1 };
      }
    } catch (e) {
      if (e instanceof CancelledError && e.why === 'superseded') return;
      if (current()) {
        this.verification = e instanceof CancelledError ? { kind: 'cancelled' } : { kind: 'error', message: e instanceof Error ? e.message : String(e) };
      }
    } finally {
      if (this.verification.kind !== 'running') {
        clearInterval(this.ticker);
        this.showFirst();
      }
    }
  }

  /** Resolves once no verification is running (at once when none is). */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      const stop = $effect.root(() => {
        $effect(() => {
          if (this.verification.kind === 'running') return;
          resolve();
          queueMicrotask(() => stop());
        });
      });
    });
  }

  /** Stops the running verification (its worker is terminated and replaced). */
  cancel(): void {
    if (this.verification.kind === 'running') this.verification = { kind: 'cancelled' };
    clearInterval(this.ticker);
    this.verifier.cancel(LANE);
  }

  /** Scrolls the spec editor to `line` and puts the cursor there (taking the focus unless `focus` is false). */
  goToLine(line: number, focus = true): void {
    this.reveal = { line, n: this.reveal.n + 1, focus };
  }

  /** The spec's and the oracle's verdicts against every implementation variant, in parallel on the pool. */
  async runMatrix(): Promise<void> {
    const seq = ++this.matrixSeq;
    const cells: MatrixCell[] = this.variants.map((variant) => ({ variant }));
    this.matrix = cells;
    this.matrixRunning = true;
    await this.verifier.warm();
    const one = async (i: number, which: 'spec' | 'oracle', spec: string | undefined) => {
      if (spec === undefined) return;
      const v = cells[i].variant;
      let status: VerdictStatus;
      try {
        const verdict = await this.verifier.verify(this.request(spec, v));
        status = verdict.status;
      } catch {
        status = 'unknown';
      }
      if (seq === this.matrixSeq) this.matrix[i][which] = status;
    };
    const jobs = cells.flatMap((_, i) => [one(i, 'spec', this.spec), one(i, 'oracle', this.reference)]);
    await Promise.all(jobs);
    if (seq === this.matrixSeq) this.matrixRunning = false;
  }

  /** What a share link of the current state holds. */
  snapshot(kernel: string): SharedState {
    return {
      v: 1,
      handler: this.handler,
      variant: this.currentVariant?.task ? this.currentVariant.id : undefined,
      spec: this.spec,
      options: { timeoutMs: this.timeoutMs, strict: this.strict },
      app: APP_VERSION,
      kernel,
    };
  }

  shareLink(): Promise<string> {
    return shareUrl(this.snapshot(content.KERNEL_VERSION));
  }

  /**
   * Opens a share link's payload. A link that cannot be read leaves a working
   * playground: the last handler and its draft (or starter) are shown, and
   * the returned message says why the link was not opened.
   */
  async openLink(payload: string): Promise<string | undefined> {
    // The link openAttempt has just opened (and is verifying): the address only caught up with it.
    // Once only: a reload, or coming back to the address later, opens the link again.
    if (this.openedRoute === `s/${payload}`) {
      this.openedRoute = '';
      return undefined;
    }
    try {
      await this.openShared(await decodeShared(payload));
      return undefined;
    } catch (e) {
      this.chosen = false;
      await this.restore().finally(() => this.showFirst());
      const why = e instanceof Error ? e.message : String(e);
      const cut = e instanceof ShareLinkError && e.code === 'LINK001' ? '' : ' It may have been cut short when it was copied: ask for the link again.';
      return `${why}${cut} The playground shows ${this.handler} instead.`;
    }
  }

  /** Opens a shared state: the spec is shown (not saved over the draft until edited) and verified at once. */
  async openShared(s: SharedState, from = ''): Promise<void> {
    if (!findHandler(s.handler)) throw new Error(`The shared link names an unknown handler "${s.handler}".`);
    this.flushSave();
    this.chosen = true;
    ++this.generation;
    this.cancel();
    this.handler = s.handler;
    this.matrix = [];
    this.spec = s.spec;
    this.variant = s.variant ?? this.variants[0].id;
    if (s.variant) await taskCatalog.load();
    this.timeoutMs = s.options.timeoutMs;
    this.strict = s.options.strict;
    this.sharedFrom = s;
    this.openedFrom = from;
    this.loaded = true;
    // The checker's diagnostics after the verdict: its worker's start (the verifier's code, evaluated once more) would
    // share a phone's CPU with the verdict's, and the editor that shows them waits for the verdict too.
    await this.verify();
    this.scheduleCheck();
    // The line the verdict blames is shown in the editor at once, without taking the focus (a phone would open its keyboard).
    if (this.verification.kind === 'done' && this.verification.verdict.status === 'refuted') await loadFixLine(this.verification.spec).catch(() => undefined);
    const line = this.blamedLine;
    if (line) this.goToLine(line, false);
  }

  /** The spec line the verdict on screen points at: where the fix goes, or the error. */
  get blamedLine(): number | undefined {
    const v = this.verification;
    if (v.kind !== 'done') return undefined;
    if (v.verdict.status === 'spec-error') return v.verdict.error.span.line;
    if (v.verdict.status !== 'refuted' || !v.verdict.counterexample?.specLine) return undefined;
    return fixLineSoon(v.spec, this.handler, v.verdict)?.line ?? v.verdict.counterexample.specLine;
  }

  /**
   * Shows a spec a model wrote (from a run's attempt, named by `from`) on the
   * variant it was shown, without touching the draft until it is edited, and
   * starts verifying it. Returns its share link's route: the caller goes
   * there, so the address reloads and shares what is shown.
   */
  async openAttempt(handler: string, variant: string | undefined, spec: string, from: string): Promise<string> {
    const state: SharedState = { v: 1, handler, variant, spec, options: { timeoutMs: this.timeoutMs, strict: this.strict }, app: APP_VERSION, kernel: content.KERNEL_VERSION };
    const route = await shareRoute(state);
    this.openedRoute = route;
    void this.openShared(state, from);
    return route;
  }

  dispose(): void {
    this.flushSave();
    clearTimeout(this.checkTimer);
    clearInterval(this.ticker);
  }
}

/** The 1-based line where C function `name` is defined in `code` (0 when absent). */
export function definitionLine(code: string | undefined, name: string): number {
  if (!code) return 0;
  const lines = code.split('\n');
  const head = new RegExp(`^[A-Za-z_].*\\b${name}\\s*\\(`);
  for (let i = 0; i < lines.length; i++) {
    if (!head.test(lines[i])) continue;
    // A definition, not a prototype: the next non-blank text after the ')' is '{'.
    const rest = lines.slice(i, i + 6).join('\n');
    const close = rest.indexOf(')');
    if (close >= 0 && /^[^;{]*\{/.test(rest.slice(close))) return i + 1;
  }
  return 0;
}
