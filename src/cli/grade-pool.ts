/**
 * A pool of grading worker threads, one per core by default. Each job has a
 * wall-clock limit; a worker that exceeds it (a hung solver) is terminated
 * and replaced, and the job is recorded as a timeout, never lost. A job the
 * worker fails on (it throws, crashes or exits) is graded `internal` and the
 * worker is replaced too, since its Z3 may be left in any state: one bad
 * answer never affects another answer's grade.
 */
import { cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import { extractSpec } from '../core/bench/answer.ts';
import { DEFAULT_GRADE_TIMEOUT_MS, type GradeResult, internalGrade } from '../core/bench/grade-types.ts';
import type { Task } from '../core/tasks/task.ts';

interface Pending {
  readonly id: number;
  readonly task: Task;
  readonly response: string;
  readonly variants?: readonly Task[];
  readonly resolve: (r: GradeResult) => void;
  readonly reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  job?: Pending;
  timer?: ReturnType<typeof setTimeout>;
  /** The handler of the last answer it graded (see pump). */
  lastHandler?: string;
  /** Set when the pool itself stops this worker (so its exit is not a crash). */
  retired?: boolean;
}

export interface GradePoolOptions {
  /** Worker threads (default: number of cores). */
  readonly size?: number;
  /** Solver timeout per query inside a worker (ms). */
  readonly timeoutMs?: number;
  /** Wall-clock limit per job before the worker is killed (ms). */
  readonly jobLimitMs?: number;
  /** Run the declarative checks on passing answers (default true). */
  readonly strict?: boolean;
}

export class GradePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  readonly timeoutMs: number;
  readonly jobLimitMs: number;
  readonly strict: boolean;
  /** Workers terminated for exceeding the job limit. */
  killed = 0;
  /** Jobs a worker failed on (graded `internal`), each followed by a fresh worker. */
  failed = 0;

  constructor(opts: GradePoolOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_GRADE_TIMEOUT_MS;
    this.jobLimitMs = opts.jobLimitMs ?? this.timeoutMs * 6 + 30000;
    this.strict = opts.strict ?? true;
    const n = Math.max(1, opts.size ?? cpus().length);
    for (let i = 0; i < n; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./grade-worker.mjs', import.meta.url));
    const slot: Slot = { worker, ready: Promise.resolve() };
    slot.ready = new Promise((resolve) => {
      const onReady = (m: { ready?: boolean }) => {
        if (m.ready) {
          worker.off('message', onReady);
          resolve();
        }
      };
      worker.on('message', onReady);
    });
    worker.on('message', (m: { id?: number; ok?: boolean; result?: GradeResult; message?: string }) => {
      if (m.id === undefined || !slot.job || slot.job.id !== m.id) return;
      const job = slot.job;
      if (m.ok) {
        this.finish(slot);
        job.resolve(m.result!);
        this.pump();
      } else {
        this.fail(slot, m.message ?? 'the grading worker failed');
      }
    });
    worker.on('error', (e) => this.fail(slot, `the grading worker crashed: ${e.message}`));
    worker.on('exit', (code) => {
      if (!slot.retired) this.fail(slot, `the grading worker exited (code ${code})`);
    });
    worker.unref();
    return slot;
  }

  private finish(slot: Slot): void {
    // An idle worker must not keep the process alive; a busy one must (see pump).
    slot.worker.unref();
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  /** The worker failed on its job: the job is graded `internal`, the worker replaced. */
  private fail(slot: Slot, message: string): void {
    if (slot.retired) return;
    const job = slot.job;
    this.replace(slot);
    if (job) {
      this.failed++;
      job.resolve(internalGrade(job.response, message));
    }
  }

  private replace(slot: Slot): void {
    this.finish(slot);
    slot.retired = true;
    void slot.worker.terminate();
    if (this.closed) return;
    const idx = this.slots.indexOf(slot);
    if (idx >= 0) this.slots[idx] = this.spawn();
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      // Affinity: a worker takes the next answer for the handler it graded
      // last if one is queued, so repeated specs hit that worker's memo.
      const same = this.queue.findIndex((j) => j.task.handler === slot.lastHandler);
      const job = this.queue.splice(same >= 0 ? same : 0, 1)[0];
      slot.job = job;
      slot.lastHandler = job.task.handler;
      // Keep the process alive while a job is pending: otherwise a CLI awaiting
      // only gradings has an empty event loop and Node exits (code 13) mid-run.
      slot.worker.ref();
      void slot.ready.then(() => {
        if (slot.job !== job) return;
        slot.timer = setTimeout(() => {
          this.killed++;
          this.replace(slot);
          job.resolve(timedOut(job.response, this.jobLimitMs));
        }, this.jobLimitMs);
        slot.worker.postMessage({ id: job.id, task: job.task, response: job.response, timeoutMs: this.timeoutMs, variants: job.variants, strict: this.strict });
      });
    }
  }

  /** Grades one answer in a worker. */
  grade(task: Task, response: string, variants?: readonly Task[]): Promise<GradeResult> {
    if (this.closed) return Promise.reject(new Error('the grading pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, response, variants, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the grading pool is closed'));
    for (const s of this.slots) {
      s.job?.reject(new Error('the grading pool is closed'));
      this.finish(s);
      s.retired = true;
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

function timedOut(response: string, limitMs: number): GradeResult {
  return {
    category: 'timeout',
    extracted: extractSpec(response),
    verdict: { status: 'timeout', obligations: [] },
    diagnosis: `The verifier did not finish within ${Math.round(limitMs / 1000)} s and was stopped.`,
    ms: limitMs,
  };
}
