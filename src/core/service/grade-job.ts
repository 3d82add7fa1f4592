/**
 * The grading job on the pool's side: one spec graded on a worker
 * (`VerifierApi.grade`, core/service/serve.ts does the grading), and what the
 * job's ending means. The page and the CLI grade through the one client
 * (client.ts), so an overrun or a crash grades the same in either.
 */
import { ToolOverrunError } from '../eval/agent/tool-overrun.ts';
import type { GradeOptions, GradeResult } from '../eval/grade/grade-types.ts';
import { DEFAULT_GRADE_TIMEOUT_MS, internalGrade } from '../eval/grade/grade-types.ts';
import type { Task } from '../tasks/task.ts';
import type { VerifierApi } from './contract.ts';
import { exhaustionOfMessage } from './exhaustion.ts';
import { hardLimitMs } from './limits.ts';
import { CancelledError, type JobOutcome, type WorkerPool } from '../pool/pool.ts';

/** The `timeout` grade of a spec whose check was stopped; `ms` as far as known. */
function stoppedGrade(spec: string, diagnosis: string, ms: number): GradeResult {
  return { category: 'timeout', extracted: spec, verdict: { status: 'timeout', obligations: [] }, diagnosis, ms };
}

/**
 * The grade a job's outcome stands for: an overrun is a `timeout` (the
 * answer kept the verifier busy past every budget), and so is a worker that
 * ran out of memory or whose Z3 stopped answering (exhaustion.ts: a verifier
 * that cannot finish, graded once, as upstream would); any other throw or
 * crash is `internal` (the grader's failure, never the model's). A cancelled
 * job has no grade: it throws `CancelledError`.
 */
export function gradeOfOutcome(outcome: JobOutcome<GradeResult>, spec: string): GradeResult {
  switch (outcome.kind) {
    case 'done':
      return outcome.value;
    case 'overrun':
      return stoppedGrade(spec, `The verifier did not finish within ${Math.round(outcome.ms / 1000)} s and was stopped.`, outcome.ms);
    case 'failed':
    case 'crashed': {
      const ran = exhaustionOfMessage(outcome.message);
      if (ran) return stoppedGrade(spec, `The verifier could not finish: ${ran.detail} (${ran.code}); its worker was replaced.`, 0);
      return internalGrade(spec, outcome.message);
    }
    case 'cancelled':
      throw new CancelledError(outcome.why);
  }
}

/**
 * Grades one spec on a pool: affinity by handler (that worker's grade memo
 * and caches are warm), a worker that throws is replaced, the hard limit is
 * limits.ts's unless given: a grading's, or with `toolCall` an agent's tool
 * call's, which throws `ToolOverrunError` past it.
 */
export async function gradeOnPool(
  pool: WorkerPool<VerifierApi>,
  task: Task,
  spec: string,
  options: GradeOptions & { readonly hardTimeoutMs?: number; readonly signal?: AbortSignal; readonly toolCall?: boolean },
): Promise<GradeResult> {
  // The signal stays on this side: it cancels the job, and cannot be sent to a worker.
  const { hardTimeoutMs, signal, toolCall, ...grading } = options;
  const limit =
    hardTimeoutMs ??
    (toolCall
      ? hardLimitMs({ kind: 'tool', limitMs: grading.timeoutMs ?? DEFAULT_GRADE_TIMEOUT_MS })
      : hardLimitMs({ kind: 'grade', timeoutMs: grading.timeoutMs, variants: grading.variants?.length }));
  const outcome = await pool.submit((api) => api.grade(task, spec, grading), { affinity: task.handler, hardTimeoutMs: limit, replaceOnError: true, ...(signal ? { signal } : {}) });
  if (toolCall && outcome.kind === 'overrun') throw new ToolOverrunError(outcome.ms);
  return gradeOfOutcome(outcome, spec);
}
