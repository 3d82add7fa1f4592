/**
 * The one client of the verifier service: a `WorkerPool` of verifier workers
 * (core/pool/pool.ts) and every way the page and the CLI call them. Only how
 * a worker is started differs by platform, and that is the pool's spawn
 * adapter: Web Workers in the page (src/worker/web-pool.ts), Node worker
 * threads in the CLI (src/cli/node-pool.ts). Each kind of job turns the
 * pool's outcome into its result here, once: a grade (grade-job.ts), a
 * verdict (a hard stop is a `timeout` verdict), a command's check (a worker
 * that ran out of memory or time is an `Exhaustion`), or a plain value.
 */
import type { RunToolReply, RunToolRequest } from '../eval/agent/run-tool.ts';
import type { GradeResult } from '../eval/grade/grade-types.ts';
import type { GraderOptions } from '../eval/session/ports.ts';
import type { Task } from '../tasks/task.ts';
import type { DiffRequest, DiffVerdict } from '../verify/equivalence.ts';
import type { VerifyRequest } from '../verify/index.ts';
import type { Verdict } from '../verify/verdict.ts';
import type { ReadyInfo, VerifierApi } from './contract.ts';
import { type Exhaustion, exhaustionOf } from './exhaustion.ts';
import { gradeOnPool } from './grade-job.ts';
import { START_LIMIT_MS, hardLimitMs } from './limits.ts';
import { CancelledError, type JobOptions, type JobOutcome, type PoolOptions, WorkerPool, type WorkerStats } from '../pool/pool.ts';

/** The request ran past its hard time limit and its worker was terminated. */
class HardTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms; the worker was stopped`);
    this.name = 'HardTimeoutError';
  }
}

/** What a caller may ask of a job: a lane (a newer job supersedes), a hard limit, a signal that cancels it. */
export type ClientJobOptions = Pick<JobOptions, 'lane' | 'hardTimeoutMs' | 'signal'>;

/** How a command's check ended (`VerifierClient.check`); `ms` counts from when the worker was ready (Z3 loaded), as the budget does. */
export type CheckOutcome<T> =
  | { readonly kind: 'done'; readonly value: T; readonly ms: number }
  | { readonly kind: 'exhausted'; readonly exhaustion: Exhaustion; readonly ms: number }
  | { readonly kind: 'failed'; readonly message: string };

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

export class VerifierClient {
  private readonly pool: WorkerPool<VerifierApi>;
  /** The job that loads Z3 for `check` (bounded, so a worker that hangs while it loads is seen too). */
  private started?: Promise<JobOutcome<ReadyInfo>>;
  /** Called whenever a worker is terminated and replaced (for status displays and tests). */
  onRespawn?: (slotId: number) => void;

  constructor(options: PoolOptions<VerifierApi>) {
    this.pool = new WorkerPool<VerifierApi>(options);
    this.pool.onRespawn = (id) => this.onRespawn?.(id);
  }

  /** How many workers it runs at most. */
  get size(): number {
    return this.pool.size;
  }

  /** Workers terminated and replaced, for any reason. */
  get respawns(): number {
    return this.pool.respawns;
  }

  /** Workers terminated for exceeding a job's hard limit. */
  get overruns(): number {
    return this.pool.overruns;
  }

  /** Jobs a worker failed on, each followed by a fresh worker. */
  get failures(): number {
    return this.pool.failures;
  }

  /** What each worker did so far: its start, its jobs and their time (pool.ts, `WorkerStats`). */
  workerStats(): WorkerStats[] {
    return this.pool.stats();
  }

  /** Loads Z3 in one worker ahead of the first request. */
  warm(): Promise<ReadyInfo> {
    return this.pool.warm() as Promise<ReadyInfo>;
  }

  /**
   * Runs `fn` on a free worker, honouring lanes, cancellation and the hard
   * limit; rejects with `CancelledError`, a hard-timeout error or the job's error.
   */
  async run<T>(fn: (api: VerifierApi) => Promise<T>, opts: ClientJobOptions = {}): Promise<T> {
    return valueOf(await this.pool.submit(fn, opts));
  }

  /**
   * Grades one spec (null: the answer had no code, graded here without a
   * worker). Past the hard limit (limits.ts, unless `hardTimeoutMs`) the
   * worker is replaced and the grade is `timeout`; a worker failure is
   * `internal`. Aborting `options.signal` cancels it (`CancelledError`); on a
   * closed client it throws.
   */
  async grade(task: Task, spec: string | null, options: GraderOptions = {}): Promise<GradeResult> {
    // The grader's code is the worker's; the page's bundle need not hold it for this one answer (docs/app.md, "Loading Z3").
    if (spec === null) return (await import('../eval/grade/grade.ts')).noCodeGrade();
    try {
      return await gradeOnPool(this.pool, task, spec, options);
    } catch (e) {
      if (e instanceof CancelledError && e.why === 'disposed' && !options.signal?.aborted) throw new Error('the grading pool is closed');
      throw e;
    }
  }

  /**
   * Verifies while a person waits (the page), with a hard stop past the
   * budget (limits.ts). A hard stop becomes a `timeout` verdict;
   * supersession and cancellation reject with `CancelledError`.
   */
  async verify(req: VerifyRequest, opts: Omit<ClientJobOptions, 'hardTimeoutMs'> = {}): Promise<Verdict> {
    try {
      return await this.run((api) => api.verify(req), { ...opts, hardTimeoutMs: hardLimitMs({ kind: 'verify', timeoutMs: req.timeoutMs, waiting: true }) });
    } catch (e) {
      if (e instanceof HardTimeoutError) return { status: 'timeout', obligations: [] };
      throw e;
    }
  }

  /**
   * Answers an agent's `run` call on a worker, off the caller's thread, with
   * a tool call's hard limit (limits.ts, unless `hardTimeoutMs`): past it the
   * worker is replaced and the reply is `overrun`. A worker failure rejects;
   * so does `signal`.
   */
  async agentRun(req: RunToolRequest, opts: Pick<ClientJobOptions, 'signal' | 'hardTimeoutMs'> = {}): Promise<RunToolReply> {
    try {
      // Affinity by handler, as grading has: that worker has the handler's symbolic run already. It needs no
      // Z3: a fresh worker answers it while Z3 loads (the kernel's parse, its start's first step, it does need).
      return valueOf(await this.pool.submit((api) => api.agentRun(req), { ...opts, affinity: req.handler, beforeStart: true, hardTimeoutMs: opts.hardTimeoutMs ?? hardLimitMs({ kind: 'tool', limitMs: req.limitMs }) }));
    } catch (e) {
      if (e instanceof HardTimeoutError) return { overrun: true };
      throw e;
    }
  }

  /** Two specs compared by meaning, with a comparison's hard limit. */
  diff(req: DiffRequest, opts: Omit<ClientJobOptions, 'hardTimeoutMs'> = {}): Promise<DiffVerdict> {
    return this.run((api) => api.diff(req), { ...opts, hardTimeoutMs: hardLimitMs({ kind: 'diff', timeoutMs: req.timeoutMs }) });
  }

  /**
   * `req`'s verdict if it takes no query (solver-free.ts), from the first
   * worker even while its Z3 is still loading; undefined when it needs Z3 or
   * that worker did not answer (`verify` then says why). `after` is called
   * with that worker's API once it has answered. With `start: false` the
   * worker's start (Z3's load) is not begun by this call (`Pool.beside`).
   */
  async verifyWithoutSolver(req: VerifyRequest, after?: (api: VerifierApi) => void, opts: { readonly start?: boolean } = {}): Promise<Verdict | undefined> {
    try {
      const verdict = await this.pool.beside(async (api) => {
        const v = await api.verifyWithoutSolver(req);
        after?.(api);
        return v;
      }, opts);
      return verdict ?? undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A command's check (`osvlab verify`, `lemmas`, `diff`): run once a worker
   * has loaded Z3 (within START_LIMIT_MS), so the budget is not spent loading
   * it; past `limitMs` from then the worker is terminated. A worker that ran
   * out of memory or time comes back as an `Exhaustion`, which the command
   * reports as a coded timeout; a C error found while the handler ran is
   * thrown as the ImplementationError it was.
   */
  async check<T>(job: (api: VerifierApi) => Promise<T>, limitMs: number): Promise<CheckOutcome<T>> {
    const ready = await this.start();
    if (ready.kind !== 'done') return { kind: 'failed', message: `the verifier could not start: ${why(ready)}` };
    const started = Date.now();
    const outcome = await this.pool.submit(job, { hardTimeoutMs: limitMs, replaceOnError: true });
    if (outcome.kind === 'done') return { kind: 'done', value: outcome.value, ms: Date.now() - started };
    if (outcome.kind === 'failed') await rethrowCoded(outcome.error);
    const exhaustion = exhaustionOf(outcome);
    if (exhaustion) return { kind: 'exhausted', exhaustion, ms: Date.now() - started };
    return { kind: 'failed', message: why(outcome) };
  }

  /** Begins loading Z3 for `check` (once); a worker that takes longer than START_LIMIT_MS is broken. */
  start(): Promise<JobOutcome<ReadyInfo>> {
    this.started ??= this.pool.submit((api) => api.init(), { hardTimeoutMs: START_LIMIT_MS });
    return this.started;
  }

  /** Cancels the running or queued request of `lane`, if any. */
  cancel(lane: string): void {
    this.pool.cancel(lane);
  }

  /** Is a request of `lane` queued or running? */
  busy(lane: string): boolean {
    return this.pool.busy(lane);
  }

  /** Terminates every worker; queued and running jobs are cancelled. */
  dispose(): Promise<void> {
    return this.pool.dispose();
  }
}

/**
 * A C error the worker found while it ran the handler, thrown here as the
 * ImplementationError it was (src/cli/grade-worker-impl.ts sends its
 * diagnostics). Its class comes with the C checker, which the page's bundle
 * need not hold for this: it is imported when needed.
 */
async function rethrowCoded(error: unknown): Promise<void> {
  const e = error as { name?: unknown; message?: unknown; diagnostics?: unknown };
  if (e?.name === 'ImplementationError' && Array.isArray(e.diagnostics) && e.diagnostics.length) {
    const { ImplementationError } = await import('../verify/implementation.ts');
    throw new ImplementationError(String(e.message), e.diagnostics as InstanceType<typeof ImplementationError>['diagnostics']);
  }
}

function why(outcome: Exclude<JobOutcome<unknown>, { kind: 'done' }>): string {
  switch (outcome.kind) {
    case 'overrun':
      return `no answer within ${outcome.ms} ms`;
    case 'cancelled':
      return `the check was ${outcome.why}`;
    case 'failed':
    case 'crashed':
      return outcome.message;
  }
}
