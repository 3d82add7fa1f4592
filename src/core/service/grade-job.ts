/**
 * The one grading job, and what its ending means. Both the page's workers
 * and the CLI's worker threads grade through `gradeJob` (the body: extract,
 * grade, strict), and both callers turn the pool's outcome into a grade with
 * `gradeOnPool`, so an overrun or a crash grades the same in either.
 */
import { extractSpec } from '../eval/grade/answer.ts';
import { gradeResponse, strictChecker } from '../eval/grade/grade.ts';
import type { GradeMemo } from '../eval/grade/grade-memo.ts';
import { DEFAULT_GRADE_TIMEOUT_MS, type GradeResult, internalGrade } from '../eval/grade/grade-types.ts';
import type { Task } from '../tasks/task.ts';
import type { VerifyEnv } from '../verify/index.ts';
import type { GradeOptions, VerifierApi } from './contract.ts';
import { exhaustionOfMessage } from './exhaustion.ts';
import { CancelledError, type JobOutcome, type WorkerPool } from '../pool/pool.ts';

/**
 * Grades one answer in this worker (core/eval/grade/grade.ts), with the
 * strict checks when asked, in the worker's environment (its engine and the
 * caches it built once) and with its grade memo.
 */
export function gradeJob(env: VerifyEnv, memo: GradeMemo, task: Task, response: string, options: GradeOptions): Promise<GradeResult> {
  const strictCheck = options.strict ? strictChecker(env, options.timeoutMs) : undefined;
  return gradeResponse(task, response, { ...env, timeoutMs: options.timeoutMs, variants: options.variants, strictCheck, memo, ...(options.implSource !== undefined ? { implSource: options.implSource } : {}) });
}

/**
 * The wall-clock limit of one grading job before its worker is stopped:
 * six solver budgets and half a minute for the grading proper (refinement,
 * bug-following, strict, the worker's start), plus one budget per variant of
 * the variant matrix.
 */
export function gradeHardLimitMs(timeoutMs = DEFAULT_GRADE_TIMEOUT_MS, variants = 0): number {
  return timeoutMs * (6 + variants) + 30_000;
}

/** The `timeout` grade of an answer whose check was stopped; `ms` as far as known. */
function stoppedGrade(response: string, diagnosis: string, ms: number): GradeResult {
  return { category: 'timeout', extracted: extractSpec(response), verdict: { status: 'timeout', obligations: [] }, diagnosis, ms };
}

/**
 * The grade a job's outcome stands for: an overrun is a `timeout` (the
 * answer kept the verifier busy past every budget), and so is a worker that
 * ran out of memory or whose Z3 stopped answering (exhaustion.ts: a verifier
 * that cannot finish, graded once, as upstream would); any other throw or
 * crash is `internal` (the grader's failure, never the model's). A cancelled
 * job has no grade: it throws `CancelledError`.
 */
export function gradeOfOutcome(outcome: JobOutcome<GradeResult>, response: string): GradeResult {
  switch (outcome.kind) {
    case 'done':
      return outcome.value;
    case 'overrun':
      return stoppedGrade(response, `The verifier did not finish within ${Math.round(outcome.ms / 1000)} s and was stopped.`, outcome.ms);
    case 'failed':
    case 'crashed': {
      const ran = exhaustionOfMessage(outcome.message);
      if (ran) return stoppedGrade(response, `The verifier could not finish: ${ran.detail} (${ran.code}); its worker was replaced.`, 0);
      return internalGrade(response, outcome.message);
    }
    case 'cancelled':
      throw new CancelledError(outcome.why);
  }
}

/**
 * Grades one answer on a pool: affinity by handler (that worker's grade memo
 * and caches are warm), a worker that throws is replaced, the hard limit is
 * `gradeHardLimitMs` unless given.
 */
export async function gradeOnPool(
  pool: WorkerPool<VerifierApi>,
  task: Task,
  response: string,
  options: GradeOptions & { readonly hardTimeoutMs?: number; readonly signal?: AbortSignal },
): Promise<GradeResult> {
  // The signal stays on this side: it cancels the job, and cannot be sent to a worker.
  const { hardTimeoutMs, signal, ...grading } = options;
  const limit = hardTimeoutMs ?? gradeHardLimitMs(grading.timeoutMs, grading.variants?.length);
  const outcome = await pool.submit((api) => api.grade(task, response, grading), { affinity: task.handler, hardTimeoutMs: limit, replaceOnError: true, ...(signal ? { signal } : {}) });
  return gradeOfOutcome(outcome, response);
}
