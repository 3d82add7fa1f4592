/**
 * The page's side of the verifier: a small pool of verifier workers that owns
 * their lives. Workers start lazily; a newer request in a lane supersedes the
 * older one; cancelling or running past the hard time limit terminates the
 * worker (the only reliable way to stop Z3 in WASM) and starts a fresh one in
 * the background so the next request does not pay for loading Z3 again.
 *
 * A separate lint worker answers `check`/`catalog` only and never loads Z3,
 * so live diagnostics keep flowing while a proof is running.
 */
import * as Comlink from 'comlink';
import type { Verdict } from '../core/verify/verdict.ts';
import type { ReadyInfo, VerifierApi, PageVerifyRequest } from './contract.ts';

/** Why a request ended without an answer. */
export class CancelledError extends Error {
  constructor(readonly why: 'superseded' | 'cancelled' | 'disposed') {
    super(`verification ${why}`);
    this.name = 'CancelledError';
  }
}

/** The request ran past its hard time limit and its worker was terminated. */
export class HardTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms; the worker was stopped`);
    this.name = 'HardTimeoutError';
  }
}

export interface RunOptions {
  /** Requests in the same lane supersede each other (the newest wins). */
  readonly lane?: string;
  /** Hard limit: past it the worker is terminated. */
  readonly hardTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

interface Slot {
  readonly id: number;
  worker: Worker;
  api: Comlink.Remote<VerifierApi>;
  ready?: Promise<ReadyInfo>;
  job?: Job;
}

interface Job {
  readonly run: (api: Comlink.Remote<VerifierApi>) => Promise<unknown>;
  readonly lane?: string;
  readonly hardTimeoutMs?: number;
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
  slot?: Slot;
  timer?: ReturnType<typeof setTimeout>;
  done: boolean;
}

export type WorkerFactory = () => Worker;

function defaultFactory(): Worker {
  return new Worker(new URL('./verifier.worker.ts', import.meta.url), { type: 'module', name: 'osvlab-verifier' });
}

/**
 * How many Z3 workers to run: one per core, at most four. Each worker holds a
 * 2 GiB WASM memory and its own Z3 threads, so more would only compete.
 */
export function defaultPoolSize(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(4, cores));
}

export class VerifierPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly lanes = new Map<string, Job>();
  private lintSlot?: Slot;
  private nextId = 1;
  private disposed = false;
  /** Called whenever a worker is terminated and replaced (for status displays and tests). */
  onRespawn?: (slotId: number) => void;
  respawns = 0;

  constructor(
    private readonly factory: WorkerFactory = defaultFactory,
    size = defaultPoolSize(),
  ) {
    this.size = size;
  }

  private spawn(): Slot {
    const worker = this.factory();
    return { id: this.nextId++, worker, api: Comlink.wrap<VerifierApi>(worker) };
  }

  /** The Z3-free worker for diagnostics and the catalog. */
  get lint(): Comlink.Remote<VerifierApi> {
    this.lintSlot ??= this.spawn();
    return this.lintSlot.api;
  }

  /** Loads Z3 in one worker ahead of the first request. */
  warm(): Promise<ReadyInfo> {
    const slot = this.slots[0] ?? this.addSlot();
    slot.ready ??= slot.api.init();
    return slot.ready;
  }

  private addSlot(): Slot {
    const slot = this.spawn();
    this.slots.push(slot);
    return slot;
  }

  /** Runs `fn` on a free worker, honouring lanes, cancellation and the hard limit. */
  run<T>(fn: (api: Comlink.Remote<VerifierApi>) => Promise<T>, opts: RunOptions = {}): Promise<T> {
    if (this.disposed) return Promise.reject(new CancelledError('disposed'));
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        run: fn as Job['run'],
        lane: opts.lane,
        hardTimeoutMs: opts.hardTimeoutMs,
        resolve: resolve as Job['resolve'],
        reject,
        done: false,
      };
      if (opts.lane) {
        const older = this.lanes.get(opts.lane);
        if (older) this.stop(older, new CancelledError('superseded'));
        this.lanes.set(opts.lane, job);
      }
      if (opts.signal) {
        if (opts.signal.aborted) return this.stop(job, new CancelledError('cancelled'));
        opts.signal.addEventListener('abort', () => this.stop(job, new CancelledError('cancelled')), { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Cancels the running or queued request of `lane`, if any. */
  cancel(lane: string): void {
    const job = this.lanes.get(lane);
    if (job) this.stop(job, new CancelledError('cancelled'));
  }

  /** Is a request of `lane` queued or running? */
  busy(lane: string): boolean {
    return this.lanes.has(lane);
  }

  /**
   * Verifies with a hard stop a little after the solver's own time limit. A
   * hard stop becomes a `timeout` verdict; supersession and cancellation
   * reject with `CancelledError`.
   */
  async verify(req: PageVerifyRequest, opts: Omit<RunOptions, 'hardTimeoutMs'> = {}): Promise<Verdict> {
    const limit = req.timeoutMs ?? 30_000;
    try {
      return await this.run<Verdict>((api) => api.verify(req), { ...opts, hardTimeoutMs: limit + Math.max(1000, limit / 2) });
    } catch (e) {
      if (e instanceof HardTimeoutError) return { status: 'timeout', obligations: [] };
      throw e;
    }
  }

  private pump(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.addSlot();
      if (!slot) return;
      const job = this.queue.shift()!;
      if (job.done) continue;
      this.start(slot, job);
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    job.slot = slot;
    if (job.hardTimeoutMs) {
      job.timer = setTimeout(() => this.stop(job, new HardTimeoutError(job.hardTimeoutMs!)), job.hardTimeoutMs);
    }
    slot.ready ??= slot.api.init();
    slot.ready
      .then(() => job.run(slot.api))
      .then(
        (v) => this.finish(job, () => job.resolve(v)),
        (e) => this.finish(job, () => job.reject(e)),
      );
  }

  private finish(job: Job, settle: () => void): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    if (job.lane && this.lanes.get(job.lane) === job) this.lanes.delete(job.lane);
    if (job.slot && job.slot.job === job) job.slot.job = undefined;
    settle();
    this.pump();
  }

  /** Ends `job` with `err`; if it is running, its worker is terminated and replaced. */
  private stop(job: Job, err: Error): void {
    if (job.done) return;
    const slot = job.slot;
    if (slot && slot.job === job) this.respawn(slot);
    this.finish(job, () => job.reject(err));
  }

  private respawn(slot: Slot): void {
    slot.api[Comlink.releaseProxy]();
    slot.worker.terminate();
    const fresh = this.spawn();
    const i = this.slots.indexOf(slot);
    // Reuse the slot's place; the replacement loads Z3 right away so the next
    // request finds it warm.
    const replacement: Slot = { ...fresh, ready: this.disposed ? undefined : fresh.api.init() };
    replacement.ready?.catch(() => undefined);
    if (i >= 0) this.slots[i] = replacement;
    slot.job = undefined;
    this.respawns++;
    this.onRespawn?.(replacement.id);
  }

  dispose(): void {
    this.disposed = true;
    for (const job of [...this.queue, ...this.lanes.values()]) this.stop(job, new CancelledError('disposed'));
    for (const s of [...this.slots, ...(this.lintSlot ? [this.lintSlot] : [])]) s.worker.terminate();
    this.slots.length = 0;
  }
}
