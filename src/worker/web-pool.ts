/**
 * The page's side of the verifier: the core's `WorkerPool`
 * (src/core/pool/pool.ts) over Web Workers behind Comlink, plus the API the
 * page uses. Workers start lazily and load Z3 on their first job; lanes,
 * cancellation, the hard limit and terminate-and-respawn are the pool's.
 *
 * A separate lint worker answers `check`/`catalog` only and never loads Z3,
 * so live diagnostics keep flowing while a proof is running.
 */
import * as Comlink from 'comlink';
import type { GradeResult } from '../core/eval/grade/grade-types.ts';
import type { GradeOptions, ReadyInfo, VerifierApi } from '../core/service/contract.ts';
import { gradeOnPool } from '../core/service/grade-job.ts';
import { CancelledError, type JobOptions, type JobOutcome, WorkerPool } from '../core/pool/pool.ts';
import type { Task } from '../core/tasks/task.ts';
import type { VerifyRequest } from '../core/verify/index.ts';
import type { Verdict } from '../core/verify/verdict.ts';
import { crashText, describeError, isCrashNote } from './crash-report.ts';
import { markWorkerPhases } from './phase-marks.ts';
import { spawnWorker, takeEarlyVerifier, type WorkerRole } from './verifier-spawn.ts';
import { withinWarmUpLimit } from './warm-up-limit.ts';
import { isZ3Unavailable } from './z3-unavailable.ts';

export { CancelledError };

/** The request ran past its hard time limit and its worker was terminated. */
class HardTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms; the worker was stopped`);
    this.name = 'HardTimeoutError';
  }
}

export type PoolJobOptions = Pick<JobOptions, 'lane' | 'hardTimeoutMs' | 'signal'>;

export type WorkerFactory = (role: WorkerRole) => Worker;

/** The page's own workers; the first verifier worker may have been started already, by the page's entry (src/worker/verifier-spawn.ts). */
function defaultFactory(role: WorkerRole): Worker {
  return (role === 'verifier' ? takeEarlyVerifier() : undefined) ?? spawnWorker(role);
}

/**
 * A worker whose script, or Z3's glue or wasm, did not load (a network
 * hiccup; WebKitGTK now and then fails to start a module worker under load)
 * is started again twice, after 0.5 s and 1 s, before its start counts as
 * failed. A browser that cannot run Z3 at all (src/worker/z3-unavailable.ts) is told at once.
 */
const START_RETRIES = { times: 2, delayMs: 500, retryable: (e: unknown) => !isZ3Unavailable(e) };

/** One Web Worker as the pool's spawn adapter sees it. */
function webWorker(factory: WorkerFactory, role: WorkerRole, crashed: (message: string) => void) {
  const worker = factory(role);
  // The worker posts a description of its own crashes (src/worker/crash-report.ts); an error
  // event still comes for a worker that failed before it could (a script that did not load).
  worker.addEventListener('error', (e) => {
    // A plain Event (not an ErrorEvent) is what a worker whose script did not load, or that the browser ended, sends.
    const text = typeof ErrorEvent !== 'undefined' && !(e instanceof ErrorEvent) ? 'it stopped without an error message (its script did not load, or the browser ended it)' : crashText(describeError(e.message, e.filename, e.lineno, e.colno, e.error));
    crashed(`the verifier worker crashed: ${text}`);
  });
  worker.addEventListener('message', (e) => {
    if (isCrashNote(e.data)) crashed(`the verifier worker crashed: ${crashText(e.data)}`);
  });
  // Every method of VerifierApi already returns a promise of cloneable data, so the proxy has its shape.
  const api = Comlink.wrap<VerifierApi>(worker);
  return {
    api: api as unknown as VerifierApi,
    terminate: () => {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/**
 * How many Z3 workers to run: one per core, at most four. Each worker holds a
 * 2 GiB WASM memory and its own Z3 threads, so more would only compete.
 */
function defaultPoolSize(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(4, cores));
}

/** The value of a finished job, or the error that says why there is none. */
function valueOf<T>(outcome: JobOutcome<T>): T {
  switch (outcome.kind) {
    case 'done':
      return outcome.value;
    case 'failed':
      throw outcome.error;
    case 'crashed':
      throw new Error(outcome.message);
    case 'overrun':
      throw new HardTimeoutError(outcome.ms);
    case 'cancelled':
      throw new CancelledError(outcome.why);
  }
}

export class VerifierPool {
  readonly size: number;
  private readonly pool: WorkerPool<VerifierApi>;
  private lintWorker?: ReturnType<typeof webWorker>;
  /** Called whenever a worker is terminated and replaced (for status displays and tests). */
  onRespawn?: (slotId: number) => void;

  constructor(
    private readonly factory: WorkerFactory = defaultFactory,
    size = defaultPoolSize(),
    warmUpLimitMs?: number,
  ) {
    // A worker has started when Z3 has loaded and warmed up, the warm-up bounded by a timer here (src/worker/warm-up-limit.ts).
    const init = async (api: VerifierApi) => (await api.init(), withinWarmUpLimit(api.warmUp(), warmUpLimitMs));
    this.pool = new WorkerPool<VerifierApi>({ spawn: (crashed) => webWorker(factory, 'verifier', crashed), size, init, startRetries: START_RETRIES });
    this.pool.onRespawn = (id) => this.onRespawn?.(id);
    this.size = this.pool.size;
  }

  get respawns(): number {
    return this.pool.respawns;
  }

  /** The Z3-free worker for diagnostics and the catalog (a crash there surfaces as a failed call). */
  get lint(): VerifierApi {
    this.lintWorker ??= webWorker(this.factory, 'lint', () => undefined);
    return this.lintWorker.api;
  }

  /** Loads Z3 in one worker ahead of the first request. */
  warm(): Promise<ReadyInfo> {
    return this.pool.warm() as Promise<ReadyInfo>;
  }

  /**
   * `req`'s verdict if it takes no query (core/service/solver-free.ts), from the
   * first worker even while its Z3 is still loading; undefined when it needs
   * Z3 or that worker did not answer (`verify` then says why).
   */
  async verifyWithoutSolver(req: VerifyRequest): Promise<Verdict | undefined> {
    try {
      const verdict = await this.pool.beside(async (api) => {
        const v = await api.verifyWithoutSolver(req);
        // Its phases for the benchmark's timeline, after the verdict and not waited for (an older worker has no `timings`).
        api.timings().then(markWorkerPhases, () => undefined);
        return v;
      });
      return verdict ?? undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Runs `fn` on a free worker, honouring lanes, cancellation and the hard
   * limit; rejects with `CancelledError`, `HardTimeoutError` or the job's error.
   */
  async run<T>(fn: (api: VerifierApi) => Promise<T>, opts: PoolJobOptions = {}): Promise<T> {
    return valueOf(await this.pool.submit(fn, opts));
  }

  /** Cancels the running or queued request of `lane`, if any. */
  cancel(lane: string): void {
    this.pool.cancel(lane);
  }

  /** Is a request of `lane` queued or running? */
  busy(lane: string): boolean {
    return this.pool.busy(lane);
  }

  /**
   * Verifies with a hard stop a little after the solver's own time limit. A
   * hard stop becomes a `timeout` verdict; supersession and cancellation reject with `CancelledError`.
   */
  async verify(req: VerifyRequest, opts: Omit<PoolJobOptions, 'hardTimeoutMs'> = {}): Promise<Verdict> {
    const limit = req.timeoutMs ?? 30_000;
    try {
      return await this.run<Verdict>((api) => api.verify(req), { ...opts, hardTimeoutMs: limit + Math.max(1000, limit / 2) });
    } catch (e) {
      if (e instanceof HardTimeoutError) return { status: 'timeout', obligations: [] };
      throw e;
    }
  }

  /**
   * Grades one answer as the CLI does (src/core/service/grade-job.ts): an overrun
   * is a `timeout` grade, a worker failure `internal`; only disposal rejects.
   */
  grade(task: Task, response: string, options: GradeOptions & { readonly signal?: AbortSignal }): Promise<GradeResult> {
    return gradeOnPool(this.pool, task, response, options);
  }

  dispose(): void {
    void this.pool.dispose();
    this.lintWorker?.terminate();
  }
}
