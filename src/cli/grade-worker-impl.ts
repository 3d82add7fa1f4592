/**
 * One grading worker thread: owns its Z3 instance, grades one answer at a
 * time on request from the pool (grade-pool.ts).
 */
import { parentPort } from 'node:worker_threads';
import { gradeResponse, strictChecker } from '../core/bench/grade.ts';
import { GradeMemo } from '../core/bench/grade-memo.ts';
import type { Task } from '../core/tasks/task.ts';
import { nodeEngine } from './z3-node.ts';

interface Job {
  readonly id: number;
  readonly task: Task;
  readonly response: string;
  readonly timeoutMs: number;
  readonly variants?: readonly Task[];
  /** Run the declarative checks on passing answers (the `strict` grade). */
  readonly strict: boolean;
}

const port = parentPort!;
/** This worker's verdicts, reused for a spec it has graded before. */
const memo = new GradeMemo();
port.on('message', async (job: Job) => {
  try {
    const engine = await nodeEngine();
    const strictCheck = job.strict ? strictChecker(engine, job.timeoutMs) : undefined;
    const result = await gradeResponse(job.task, job.response, { engine, timeoutMs: job.timeoutMs, variants: job.variants, strictCheck, memo });
    port.postMessage({ id: job.id, ok: true, result });
  } catch (e) {
    port.postMessage({ id: job.id, ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});
port.postMessage({ ready: true });
