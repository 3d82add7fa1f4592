/**
 * The one worker pool, for the page (Web Workers) and the CLI (worker
 * threads). It owns its workers' lives and knows nothing of how they are
 * spawned: a spawn adapter (src/worker/web-pool.ts, src/cli/node-pool.ts) starts
 * one worker and hands back its API and a way to stop it.
 *
 * - Lazy start: a worker is spawned when a job needs one, up to `size`.
 * - Lanes: a newer job in a lane supersedes the older one.
 * - Affinity: a free worker takes the queued job with the key of its last
 *   job first, since its caches are warm for that key (grading: the handler),
 *   and otherwise one whose key no other worker has, so each key's caches
 *   are built once.
 * - Cancel (AbortSignal) and a hard time limit per job.
 * - A job that needs nothing the worker's start loads (`beforeStart`: an
 *   agent's `run` call, which asks no solver) runs beside that start.
 * - Terminate-and-respawn: stopping Z3 in WASM reliably means terminating
 *   its worker, so a cancelled, overrunning or crashed job's worker is
 *   replaced, and the replacement starts loading at once.
 * - Start again: a worker whose start fails (its script or Z3 did not load:
 *   a network hiccup) is replaced by a fresh one a bounded number of times,
 *   with growing pauses, before the start counts as failed (`startRetries`).
 *   A worker whose start failed for good is terminated; the next job starts
 *   a fresh one.
 *
 * Every job ends in a `JobOutcome`, never a rejection: what an overrun or a
 * crash means is the caller's decision (docs/design.md §5).
 */

/** How a job ended. */
export type JobOutcome<T> =
  | { readonly kind: 'done'; readonly value: T }
  /** The job threw (in the worker, or its start failed). */
  | { readonly kind: 'failed'; readonly error: unknown; readonly message: string }
  /** The worker died or raised an uncaught error while it had the job. */
  | { readonly kind: 'crashed'; readonly message: string }
  /** The job ran past its hard time limit; its worker was terminated. */
  | { readonly kind: 'overrun'; readonly ms: number }
  | { readonly kind: 'cancelled'; readonly why: CancelReason };

export type CancelReason = 'superseded' | 'cancelled' | 'disposed';

/** A job that ended without an answer because it was cancelled. */
export class CancelledError extends Error {
  constructor(readonly why: CancelReason) {
    super(`verification ${why}`);
    this.name = 'CancelledError';
  }
}

/**
 * What one worker did, for a benchmark's or a command's summary (ms since
 * the epoch): when it was spawned and had started (its `init` done), how
 * many jobs it ran, their time from the hand-over after its start to their
 * end, and when its last job ended.
 */
export interface WorkerStats {
  readonly spawnedAt: number;
  readonly readyAt?: number;
  readonly jobs: number;
  readonly busyMs: number;
  readonly lastEndAt?: number;
}

/** One running worker, as a spawn adapter hands it to the pool. */
export interface WorkerHandle<Api> {
  /** What jobs call (in practice a Comlink proxy of the worker's API). */
  readonly api: Api;
  /** Stops the worker now; a pending call on it never settles. */
  terminate(): unknown;
  /**
   * Whether the worker keeps the process alive (Node). The pool holds a
   * worker while it has a job, so a CLI awaiting only gradings cannot exit
   * with an empty event loop, and lets go of an idle one.
   */
  hold?(busy: boolean): void;
}

/**
 * Starts one worker. The adapter calls `crashed` when the worker dies or
 * raises an uncaught error; the pool ignores it once it has let go of that
 * worker.
 */
export type Spawn<Api> = (crashed: (message: string) => void) => WorkerHandle<Api>;

export interface PoolOptions<Api> {
  readonly spawn: Spawn<Api>;
  /** Most workers at once (at least 1). */
  readonly size: number;
  /** Run once on each worker before its first job (loading Z3); a failure fails that job and is retried by the next. */
  readonly init?: (api: Api) => Promise<unknown>;
  /**
   * A start that fails (the worker crashed before its init answered, or init
   * threw) is tried again on a fresh worker up to `times` more times, after
   * `delayMs`, then twice that, and so on, unless `retryable` says the error
   * will not go away; only then does it fail the job or warm() waiting on it.
   * None by default.
   */
  readonly startRetries?: { readonly times: number; readonly delayMs: number; readonly retryable?: (error: unknown) => boolean };
}

export interface JobOptions {
  /** Jobs in the same lane supersede each other (the newest wins). */
  readonly lane?: string;
  /** Prefer the worker whose last job had this key. */
  readonly affinity?: string;
  /**
   * Past this many ms the worker is terminated: counted from the hand-over to a
   * worker while it starts, and again from its start's end for the job itself.
   */
  readonly hardTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /**
   * The job needs nothing the worker's start (`init`) makes ready: it runs as
   * soon as a worker takes it, while that worker's start goes on (begun now if
   * it was not), and its hard limit counts from the hand-over. A start that
   * fails meanwhile fails the job with it.
   */
  readonly beforeStart?: boolean;
  /** A throw leaves the worker in an unknown state (a grading's Z3): replace it. */
  readonly replaceOnError?: boolean;
}

interface Slot<Api> {
  readonly id: number;
  readonly handle: WorkerHandle<Api>;
  ready?: Promise<unknown>;
  /** Its start is under way (a crash now is a failed start, which may be tried again). */
  starting: boolean;
  /** Failed starts of the workers this one replaces, for `startRetries` (a later job's start has them all again). */
  tries: number;
  /** Rejects when the worker crashes or is let go: a start under way then fails instead of never settling. */
  readonly ended: Promise<never>;
  end(error: Error): void;
  job?: Job<Api>;
  lastKey?: string;
  /** The pool let go of this worker: its late events mean nothing. */
  gone: boolean;
  /** What it did (`WorkerPool.stats`). */
  readonly stats: { -readonly [K in keyof WorkerStats]: WorkerStats[K] };
}

interface Job<Api> {
  readonly run: (api: Api) => Promise<unknown>;
  readonly opts: JobOptions;
  readonly settle: (o: JobOutcome<unknown>) => void;
  slot?: Slot<Api>;
  timer?: ReturnType<typeof setTimeout>;
  done: boolean;
  /** When its worker, started, was handed it (ms since the epoch). */
  ranAt?: number;
}

/** The jobs waiting on one abort signal, and the one listener the pool put on it. */
interface Watched<Api> {
  readonly jobs: Set<Job<Api>>;
  readonly onAbort: () => void;
}

/** The longest delay a timer holds (2^31 - 1 ms, 24.8 days); a longer one would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A worker's start that ended because the pool replaced the worker (its job was stopped), not because it failed. */
class ReplacedError extends Error {
  constructor() {
    super('the worker was replaced');
    this.name = 'ReplacedError';
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A start's last failure, saying how many starts failed (the error's name kept: callers tell errors apart by it). */
function afterTries(error: unknown, tries: number): unknown {
  if (tries < 2) return error;
  const e = new Error(`${messageOf(error)} (${tries} starts failed)`);
  if (error instanceof Error) e.name = error.name;
  return e;
}

export class WorkerPool<Api> {
  readonly size: number;
  private readonly slots: Slot<Api>[] = [];
  /** What every worker this pool spawned did, replaced ones included. */
  private readonly history: Slot<Api>['stats'][] = [];
  private readonly queue: Job<Api>[] = [];
  private readonly lanes = new Map<string, Job<Api>>();
  /**
   * One listener per abort signal, however many jobs share it: a run submits
   * every task with its one signal, and a listener per job made Node warn of
   * a listener leak past ten queued jobs.
   */
  private readonly signals = new Map<AbortSignal, Watched<Api>>();
  private nextId = 1;
  private disposed = false;
  /** Workers terminated and replaced, for any reason. */
  respawns = 0;
  /** Jobs that ran past their hard limit. */
  overruns = 0;
  /** Jobs that ended `failed` or `crashed`. */
  failures = 0;
  /** Failed starts tried again on a fresh worker (`startRetries`). */
  restarts = 0;
  /** Called whenever a worker is terminated and replaced (status displays, tests). */
  onRespawn?: (slotId: number) => void;

  constructor(private readonly opts: PoolOptions<Api>) {
    this.size = Math.max(1, opts.size);
  }

  /**
   * Starts one worker (and its init) ahead of the first job. Settles in any
   * case: rejects when the worker crashes while starting (with the crash's
   * message); when the worker is replaced meanwhile (a job on it was
   * cancelled), waits for its replacement instead.
   */
  async warm(): Promise<unknown> {
    for (;;) {
      if (this.disposed) throw new CancelledError('disposed');
      const slot = this.slots[0] ?? this.addSlot();
      try {
        return await this.readyOf(slot);
      } catch (e) {
        if (!(e instanceof ReplacedError)) throw e;
      }
    }
  }

  /**
   * Runs `run` on the first worker as soon as it exists, without waiting for
   * its start (`init`) and beside whatever job it has: for a short call that
   * needs nothing the start loads (the page's verification from committed
   * proofs while Z3's wasm compiles, core/service/solver-free.ts). Begins that
   * worker's start, as `warm()` does, unless `start` is false: a share link's
   * first verdict asks before Z3 is wanted, so that Z3's download and compile
   * do not share the network and the CPU with it (docs/app.md, "Loading Z3").
   * No lane, limit or signal: rejects when the worker crashes or is let go (a
   * failed start, the pool's disposal).
   */
  beside<T>(run: (api: Api) => Promise<T>, opts: { readonly start?: boolean } = {}): Promise<T> {
    if (this.disposed) return Promise.reject(new CancelledError('disposed'));
    const slot = this.slots[0] ?? this.addSlot();
    if (opts.start !== false) this.readyOf(slot).catch(() => undefined);
    return Promise.race([run(slot.handle.api), slot.ended]);
  }

  /** Runs `run` on a worker; resolves with how it ended. */
  submit<T>(run: (api: Api) => Promise<T>, opts: JobOptions = {}): Promise<JobOutcome<T>> {
    if (this.disposed) return Promise.resolve({ kind: 'cancelled', why: 'disposed' });
    return new Promise((resolve) => {
      const job: Job<Api> = { run, opts, settle: resolve as Job<Api>['settle'], done: false };
      if (opts.lane) {
        const older = this.lanes.get(opts.lane);
        if (older) this.stop(older, { kind: 'cancelled', why: 'superseded' });
        this.lanes.set(opts.lane, job);
      }
      if (opts.signal) {
        if (opts.signal.aborted) return this.stop(job, { kind: 'cancelled', why: 'cancelled' });
        this.watch(opts.signal, job);
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** What each worker the pool spawned did, in the order they were spawned (replaced ones included). */
  stats(): WorkerStats[] {
    return this.history.map((s) => ({ ...s }));
  }

  /** Cancels the running or queued job of `lane`, if any. */
  cancel(lane: string): void {
    const job = this.lanes.get(lane);
    if (job) this.stop(job, { kind: 'cancelled', why: 'cancelled' });
  }

  /** Is a job of `lane` queued or running? */
  busy(lane: string): boolean {
    return this.lanes.has(lane);
  }

  /** Cancels every job and terminates every worker. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const jobs = [...this.queue.splice(0), ...this.slots.map((s) => s.job)];
    const stopping = this.slots.splice(0).map((s) => this.letGo(s));
    for (const job of jobs) if (job) this.finish(job, { kind: 'cancelled', why: 'disposed' });
    await Promise.all(stopping);
  }

  private spawn(tries = 0): Slot<Api> {
    const id = this.nextId++;
    let slot: Slot<Api> | undefined;
    const handle = this.opts.spawn((message) => {
      if (slot && !slot.gone) this.crashed(slot, message);
    });
    let end!: (error: Error) => void;
    const ended = new Promise<never>((_, reject) => (end = reject));
    ended.catch(() => undefined);
    slot = { id, handle, gone: false, ended, end, starting: false, tries, stats: { spawnedAt: Date.now(), jobs: 0, busyMs: 0 } };
    this.history.push(slot.stats);
    handle.hold?.(false);
    return slot;
  }

  private addSlot(): Slot<Api> {
    const slot = this.spawn();
    this.slots.push(slot);
    return slot;
  }

  /** Resolves when `slot`'s worker, or the fresh one that replaced it after a failed start, has started. */
  private readyOf(slot: Slot<Api>): Promise<unknown> {
    if (!slot.ready) {
      const init = this.opts.init;
      slot.starting = true;
      // A worker that dies while starting never answers init: its end settles the start.
      const attempt = init ? Promise.race([init(slot.handle.api), slot.ended]) : Promise.resolve();
      slot.ready = attempt.then(
        (value) => ((slot.starting = false), (slot.stats.readyAt = Date.now()), value),
        (error: unknown) => ((slot.starting = false), this.startAgain(slot, error)),
      );
      // A failed start fails the job waiting on it, and its worker goes: it may never answer again (a warm-up
      // that stalled, docs/app.md "Browser support"). The next job starts a fresh one.
      slot.ready.catch(() => {
        if (slot.gone) return;
        const i = this.slots.indexOf(slot);
        if (i >= 0) this.slots.splice(i, 1);
        void this.letGo(slot);
      });
    }
    return slot.ready;
  }

  /** Will a failed start of `slot` be tried again on a fresh worker? */
  private willRetry(slot: Slot<Api>, error: unknown): boolean {
    const r = this.opts.startRetries;
    return !!r && slot.tries < r.times && !this.disposed && !slot.gone && !(error instanceof ReplacedError) && (r.retryable?.(error) ?? true);
  }

  /** After a failed start: pause, replace the worker (its job goes along) and wait for the fresh one's start; or fail. */
  private async startAgain(slot: Slot<Api>, error: unknown): Promise<unknown> {
    if (!this.willRetry(slot, error)) throw error instanceof ReplacedError ? error : afterTries(error, slot.tries + 1);
    await new Promise<void>((r) => setTimeout(r, this.opts.startRetries!.delayMs * 2 ** slot.tries));
    // Stopped meanwhile (its job cancelled or overrun, the pool disposed): whoever stopped it replaced it.
    const i = this.slots.indexOf(slot);
    if (slot.gone || this.disposed || i < 0) throw new ReplacedError();
    const job = slot.job;
    void this.letGo(slot);
    const fresh = this.spawn(slot.tries + 1);
    this.slots[i] = fresh;
    fresh.lastKey = slot.lastKey;
    // A job running beside the failed start stays with the worker it was sent to, and ends with it.
    if (job && !job.opts.beforeStart) {
      fresh.job = job;
      job.slot = fresh;
      fresh.handle.hold?.(true);
    }
    this.restarts++;
    return this.readyOf(fresh);
  }

  private pump(): void {
    if (this.disposed) return;
    for (;;) {
      // A job whose signal has fired but whose listener has not run yet (one
      // signal, several jobs) must not take a worker only to stop it.
      for (const job of this.queue) if (job.opts.signal?.aborted) this.end(job, { kind: 'cancelled', why: 'cancelled' });
      while (this.queue.length && this.queue[0].done) this.queue.shift();
      if (!this.queue.length) return;
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.addSlot();
      if (!slot) return;
      const job = this.queue.splice(this.nextFor(slot), 1)[0];
      this.start(slot, job);
    }
  }

  /**
   * Where in the queue the job `slot` takes next is: the first with the key
   * of its last job (its caches are warm for it); else the first whose key
   * no other worker has (a key's jobs stay with one worker, which pays for
   * its cold caches once: grading a handler's first answer builds its
   * symbolic runs, its proof keys and its reachable states); else the first.
   */
  private nextFor(slot: Slot<Api>): number {
    const open = (j: Job<Api>) => !j.done;
    if (slot.lastKey !== undefined) {
      const same = this.queue.findIndex((j) => open(j) && j.opts.affinity === slot.lastKey);
      if (same >= 0) return same;
    }
    const others = new Set(this.slots.filter((s) => s !== slot && s.lastKey !== undefined).map((s) => s.lastKey));
    const free = this.queue.findIndex((j) => open(j) && (j.opts.affinity === undefined || !others.has(j.opts.affinity)));
    return free >= 0 ? free : 0;
  }

  private start(slot: Slot<Api>, job: Job<Api>): void {
    slot.job = job;
    job.slot = slot;
    if (job.opts.affinity !== undefined) slot.lastKey = job.opts.affinity;
    slot.handle.hold?.(true);
    const limit = job.opts.hardTimeoutMs;
    const arm = () => {
      clearTimeout(job.timer);
      job.timer = setTimeout(() => this.overrun(job, limit!), Math.min(limit!, MAX_TIMER_MS));
    };
    // The limit bounds the worker's start (a start that hangs is an overrun too), then the job
    // afresh: a slow start (Z3 loading in a slow engine) does not eat the job's own time.
    if (limit) arm();
    const ready = this.readyOf(slot);
    let running: Promise<unknown>;
    if (job.opts.beforeStart) {
      // Sent now, after the start's own first call; it ends with its worker (a start that fails lets the worker go).
      ready.catch(() => undefined);
      running = Promise.race([job.run(slot.handle.api), slot.ended]);
    } else {
      running = ready.then(() => {
        if (job.done) return undefined;
        if (limit) arm();
        job.ranAt = Date.now();
        // The job's worker: a failed start may have replaced the one it was handed.
        return job.run(job.slot!.handle.api);
      });
    }
    running
      .then(
        (value) => this.finish(job, { kind: 'done', value }),
        (error) => {
          if (job.done) return;
          this.failures++;
          const outcome: JobOutcome<unknown> = { kind: 'failed', error, message: messageOf(error) };
          if (job.opts.replaceOnError) this.stop(job, outcome);
          else this.finish(job, outcome);
        },
      );
  }

  private overrun(job: Job<Api>, ms: number): void {
    if (job.done) return;
    this.overruns++;
    this.stop(job, { kind: 'overrun', ms });
  }

  private crashed(slot: Slot<Api>, message: string): void {
    const error = new Error(message);
    slot.end(error);
    // Died while starting: the start fails, and startAgain replaces the worker (with its job) if it may.
    if (slot.starting && this.willRetry(slot, error)) return;
    const job = slot.job;
    if (job) {
      this.failures++;
      this.stop(job, { kind: 'crashed', message: slot.starting ? messageOf(afterTries(error, slot.tries + 1)) : message });
      return;
    }
    // An idle worker died: drop it; the next job spawns a fresh one (so a
    // worker that cannot start does not respawn in a loop).
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    void this.letGo(slot);
  }

  private finish(job: Job<Api>, outcome: JobOutcome<unknown>): void {
    if (job.done) return;
    this.end(job, outcome);
    this.pump();
  }

  /** Stops `job` when `signal` aborts. */
  private watch(signal: AbortSignal, job: Job<Api>): void {
    let w = this.signals.get(signal);
    if (!w) {
      const jobs = new Set<Job<Api>>();
      const onAbort = () => {
        this.signals.delete(signal);
        for (const j of jobs) this.stop(j, { kind: 'cancelled', why: 'cancelled' });
      };
      w = { jobs, onAbort };
      this.signals.set(signal, w);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    w.jobs.add(job);
  }

  /** `job` no longer waits on `signal`; the listener goes with the signal's last job. */
  private unwatch(signal: AbortSignal, job: Job<Api>): void {
    const w = this.signals.get(signal);
    if (!w) return;
    w.jobs.delete(job);
    if (w.jobs.size > 0) return;
    this.signals.delete(signal);
    signal.removeEventListener('abort', w.onAbort);
  }

  /** Settles `job` and frees its worker (without handing the worker on). */
  private end(job: Job<Api>, outcome: JobOutcome<unknown>): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    if (job.opts.signal) this.unwatch(job.opts.signal, job);
    if (job.opts.lane && this.lanes.get(job.opts.lane) === job) this.lanes.delete(job.opts.lane);
    const slot = job.slot;
    if (slot && job.ranAt !== undefined) {
      const now = Date.now();
      slot.stats.jobs++;
      slot.stats.busyMs += now - job.ranAt;
      slot.stats.lastEndAt = now;
    }
    if (slot && slot.job === job) {
      slot.job = undefined;
      slot.handle.hold?.(false);
    }
    job.settle(outcome);
  }

  /** Ends `job` with `outcome`; if it is running, its worker is terminated and replaced. */
  private stop(job: Job<Api>, outcome: JobOutcome<unknown>): void {
    if (job.done) return;
    const slot = job.slot;
    if (slot && slot.job === job) this.respawn(slot);
    this.finish(job, outcome);
  }

  private letGo(slot: Slot<Api>): Promise<unknown> {
    slot.end(new ReplacedError());
    slot.gone = true;
    slot.job = undefined;
    slot.handle.hold?.(false);
    return Promise.resolve(slot.handle.terminate()).catch(() => undefined);
  }

  private respawn(slot: Slot<Api>): void {
    void this.letGo(slot);
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    if (this.disposed) {
      this.slots.splice(i, 1);
      return;
    }
    // The replacement takes the old one's place and starts loading now, so
    // the next job finds it warm.
    const fresh = this.spawn();
    this.slots[i] = fresh;
    this.readyOf(fresh).catch(() => undefined);
    this.respawns++;
    this.onRespawn?.(fresh.id);
  }
}
