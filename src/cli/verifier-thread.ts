/**
 * The checks of `osvlab verify` and `osvlab lemmas`, run in a verifier worker
 * thread rather than in the command's own process, so that what Z3 or the
 * spec can do to a process cannot happen to the command: Z3 running out of
 * its WASM heap aborts the worker, not the process; a query that ignores its
 * timeout is stopped by terminating the worker at the hard limit (the only
 * reliable stop, docs/design.md §5); a spec whose evaluation exhausts the
 * JavaScript heap ends the worker, not the process. Each comes back as an
 * `Exhaustion` (src/core/service/exhaustion.ts), which the command reports as
 * a coded timeout.
 */
import type { VerifierApi } from '../core/service/contract.ts';
import { type Exhaustion, exhaustionOf } from '../core/service/exhaustion.ts';
import { type JobOutcome, WorkerPool } from '../core/pool/pool.ts';
import { ImplementationError } from '../core/verify/index.ts';
import { workerThread } from './node-pool.ts';

/** How a check ended; `ms` counts from when the worker was ready (Z3 loaded), as the budget does. */
export type ThreadResult<T> =
  | { readonly kind: 'done'; readonly value: T; readonly ms: number }
  | { readonly kind: 'exhausted'; readonly exhaustion: Exhaustion; readonly ms: number }
  | { readonly kind: 'failed'; readonly message: string };

/** Loading Z3 takes 1-3 s idle and far longer on a loaded machine; a worker that takes longer than this is broken. */
const START_LIMIT_MS = 180_000;

/**
 * How long past its budget a verification may run: after the deadline a
 * refutation is still made readable, with up to three preference queries of
 * 3 s each (src/core/verify/counterexample-wellformed.ts) and the replay.
 */
const VERIFY_SLACK_MS = 15_000;

/**
 * The declarative checks have no wall-clock budget, only one per query, and
 * a query per fact (a few hundred at most); each query that ignores its
 * timeout is stopped by the watchdog. This limit is the backstop behind it.
 */
export function lemmasLimitMs(queryTimeoutMs: number): number {
  return 30 * 60_000 + 512 * queryTimeoutMs;
}

/** The hard limit of one `verify`: its budget and the slack, plus the declarative checks with `--strict`. */
export function verifyLimitMs(budgetMs: number, strict: boolean): number {
  return budgetMs + VERIFY_SLACK_MS + (strict ? lemmasLimitMs(budgetMs) : 0);
}

/** One verifier worker thread, loading Z3 from the moment it is made. */
export class VerifierThread {
  private readonly pool = new WorkerPool<VerifierApi>({ spawn: workerThread, size: 1 });
  // A job of its own, so a worker that dies or hangs while it loads Z3 is seen too.
  private readonly ready = this.pool.submit((api) => api.init(), { hardTimeoutMs: START_LIMIT_MS });

  /**
   * Runs `job` once the worker is ready (so the budget is not spent loading
   * Z3); past `limitMs` from then the worker is terminated.
   */
  async run<T>(job: (api: VerifierApi) => Promise<T>, limitMs: number): Promise<ThreadResult<T>> {
    const ready = await this.ready;
    if (ready.kind !== 'done') return { kind: 'failed', message: `the verifier could not start: ${why(ready)}` };
    const started = Date.now();
    const outcome = await this.pool.submit(job, { hardTimeoutMs: limitMs, replaceOnError: true });
    if (outcome.kind === 'done') return { kind: 'done', value: outcome.value, ms: Date.now() - started };
    if (outcome.kind === 'failed') rethrowCoded(outcome.error);
    const exhaustion = exhaustionOf(outcome);
    if (exhaustion) return { kind: 'exhausted', exhaustion, ms: Date.now() - started };
    return { kind: 'failed', message: why(outcome) };
  }

  /** Terminates the worker. */
  close(): Promise<void> {
    return this.pool.dispose();
  }
}

/** A C error the worker found while it ran the handler, thrown here as the ImplementationError it was (grade-worker-impl.ts sends its diagnostics). */
function rethrowCoded(error: unknown): void {
  const e = error as { name?: unknown; message?: unknown; diagnostics?: unknown };
  if (e?.name === 'ImplementationError' && Array.isArray(e.diagnostics) && e.diagnostics.length) {
    throw new ImplementationError(String(e.message), e.diagnostics as ImplementationError['diagnostics']);
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
