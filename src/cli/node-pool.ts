/**
 * The CLI's grading pool: the core's `WorkerPool` (src/core/pool/pool.ts)
 * over Node worker threads, one per core by default, each serving the same
 * `VerifierApi` as the page's workers. A job that runs past its wall-clock
 * limit (a hung solver) has its worker terminated and replaced and is graded
 * `timeout`, never lost; a job the worker fails on (it throws, crashes or
 * exits) is graded `internal` and the worker is replaced too, since its Z3
 * may be left in any state: one bad answer never affects another's grade.
 */
import { cpus, totalmem } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import type { GradeResult } from '../core/eval/grade/grade-types.ts';
import type { GradeOptions, VerifierApi } from '../core/service/contract.ts';
import { gradeOnPool } from '../core/service/grade-job.ts';
import { CancelledError, type WorkerHandle, WorkerPool } from '../core/pool/pool.ts';
import type { Task } from '../core/tasks/task.ts';
import { nodeEndpoint } from './node-endpoint.ts';
import { forwardWorkerStderr } from './worker-stderr.ts';
import { compiledZ3 } from './z3-node.ts';

/**
 * The most worker threads a pool starts, whatever is asked: two per core
 * (each Z3 check keeps a core busy, so more only wait), and one per GiB of
 * memory (each worker holds its own Z3, about 125 MB idle and up to its 2 GiB
 * heap when a proof is large): `grade --concurrency 200` started 200 and ran
 * the machine out of memory.
 */
export function maxWorkers(cores = cpus().length, memoryBytes = totalmem()): number {
  return Math.max(1, Math.min(2 * cores, Math.floor(memoryBytes / 2 ** 30)));
}

export interface GradePoolOptions {
  /** Worker threads (default: number of cores; at most `maxWorkers()`). */
  readonly size?: number;
}

/** The pool's spawn adapter: one verifier worker thread (grade-worker.mjs). */
export function workerThread(crashed: (message: string) => void): WorkerHandle<VerifierApi> {
  // Its stderr comes through a filter: Z3's abort report is replaced by the pool's coded diagnostic.
  // Z3's wasm is compiled once per process and posted to each worker (z3-node.ts, compiledZ3).
  const z3 = new MessageChannel();
  const worker = new Worker(new URL('./grade-worker.mjs', import.meta.url), { stderr: true, workerData: { z3Module: z3.port2 }, transferList: [z3.port2] });
  z3.port1.unref();
  compiledZ3().then(
    (module) => z3.port1.postMessage(module),
    () => z3.port1.postMessage(undefined),
  );
  forwardWorkerStderr(worker.stderr);
  worker.on('error', (e) => crashed(`the verifier worker crashed: ${e.message}`));
  worker.on('exit', (code) => crashed(`the verifier worker exited (code ${code})`));
  const api = Comlink.wrap<VerifierApi>(nodeEndpoint(worker));
  return {
    // Every method of VerifierApi already returns a promise of cloneable data, so the proxy has its shape.
    api: api as unknown as VerifierApi,
    terminate: () => worker.terminate(),
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
  };
}

export class GradePool {
  private readonly pool: WorkerPool<VerifierApi>;

  constructor(opts: GradePoolOptions = {}) {
    this.pool = new WorkerPool<VerifierApi>({ spawn: workerThread, size: Math.min(opts.size ?? cpus().length, maxWorkers()), init: (api) => api.init() });
  }

  /** How many workers it runs at most. */
  get size(): number {
    return this.pool.size;
  }

  /** Workers terminated for exceeding the job limit. */
  get killed(): number {
    return this.pool.overruns;
  }

  /** Jobs a worker failed on (graded `internal`), each followed by a fresh worker. */
  get failed(): number {
    return this.pool.failures;
  }

  /**
   * Grades one answer in a worker with `options` (a run session's grade
   * closure sets them; src/core/eval/session/grading.ts). The job's
   * wall-clock limit is `gradeHardLimitMs` of its options unless
   * `hardTimeoutMs` is given; past it the worker is replaced and the grade is
   * `timeout`. Aborting `options.signal` cancels it (it throws
   * `CancelledError`); on a closed pool it throws.
   */
  async grade(task: Task, response: string, options: GradeOptions & { readonly signal?: AbortSignal; readonly hardTimeoutMs?: number } = {}): Promise<GradeResult> {
    try {
      return await gradeOnPool(this.pool, task, response, options);
    } catch (e) {
      if (e instanceof CancelledError && !options.signal?.aborted) throw new Error('the grading pool is closed');
      throw e;
    }
  }

  close(): Promise<void> {
    return this.pool.dispose();
  }
}
