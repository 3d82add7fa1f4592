/**
 * Runs grouped by meaning for the CLI (`report`, `compare`): the core's
 * grouping (core/eval/stats/determinism.ts) with its comparisons asked of
 * one verifier worker thread, started on the first comparison that needs
 * a query's worker (a run whose samples need none never loads Z3).
 */
import type { AttemptRecord } from '../core/eval/run/run-types.ts';
import { BY_TASK, type Determinism, type GroupingKey, groupAttempts } from '../core/eval/stats/determinism.ts';
import { exhaustionDiagnostic } from '../core/service/exhaustion.ts';
import type { DiffVerdict } from '../core/verify/equivalence.ts';
import type { VerifierClient } from '../core/service/client.ts';
import { hardLimitMs } from '../core/service/limits.ts';
import { verifierThread } from './node-pool.ts';

/** The budget of one comparison while grouping (ms): a query the grade itself would give up on is undecided here too. */
const GROUPING_COMPARE_MS = 20_000;

/** Groups `attempts` by meaning; `handlerOf(key)` names a group's handler. */
export async function groupByMeaning(attempts: readonly AttemptRecord[], handlerOf: (key: string) => string, by: GroupingKey = BY_TASK): Promise<Determinism> {
  let thread: VerifierClient | undefined;
  try {
    return await groupAttempts(attempts, by, (key) => async (a, b): Promise<DiffVerdict> => {
      thread ??= verifierThread();
      const r = await thread.check((api) => api.diff({ handler: handlerOf(key), a, b, timeoutMs: GROUPING_COMPARE_MS, ghost: false }), hardLimitMs({ kind: 'diff', timeoutMs: GROUPING_COMPARE_MS }));
      if (r.kind === 'done') return r.value;
      const reason = r.kind === 'exhausted' ? exhaustionDiagnostic(r.exhaustion).message : r.message;
      return { status: 'unknown', reason, ms: 'ms' in r ? r.ms : 0, queries: 1 };
    });
  } finally {
    await thread?.dispose();
  }
}
