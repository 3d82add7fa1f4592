/**
 * Retries with exponential backoff and jitter, for the errors worth retrying
 * (network, 429, 5xx, timeouts, unreadable answers), honouring the provider's
 * Retry-After. Cancellation stops it at once, including mid-wait.
 */
import { type Clock, realClock, throwIfAborted } from './clock.ts';
import { LlmError, isLlmError } from './errors.ts';

export interface RetryPolicy {
  /** Total tries including the first (default 5). */
  readonly maxAttempts?: number;
  /** First backoff in ms (default 1000); doubles each retry. */
  readonly baseMs?: number;
  /** Cap on one computed backoff (default 60 000). */
  readonly maxDelayMs?: number;
  /** Longest Retry-After we agree to wait; a longer one fails the request (default 300 000). */
  readonly maxRetryAfterMs?: number;
}

export interface RetryDeps {
  readonly clock?: Clock;
  /** Uniform in [0, 1); injectable so tests know the jitter. */
  readonly random?: () => number;
  readonly signal?: AbortSignal;
  /** Called before each wait, e.g. for logging or progress. */
  readonly onRetry?: (error: LlmError, attempt: number, delayMs: number) => void;
}

/**
 * The wait before retry number `attempt` (1 = first retry): the provider's
 * Retry-After when given, else base * 2^(attempt-1) capped at maxDelayMs,
 * with "equal jitter" (half fixed, half random) so clients spread out.
 */
export function backoffDelay(attempt: number, error: LlmError, policy: RetryPolicy = {}, random: () => number = Math.random): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  const base = policy.baseMs ?? 1000;
  const cap = policy.maxDelayMs ?? 60_000;
  const exp = Math.min(cap, base * 2 ** (attempt - 1));
  return exp / 2 + (exp / 2) * random();
}

/** Runs `fn` until it succeeds, fails for good, runs out of tries, or is cancelled. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy = {}, deps: RetryDeps = {}): Promise<T> {
  const clock = deps.clock ?? realClock;
  const random = deps.random ?? Math.random;
  const maxAttempts = Math.max(1, policy.maxAttempts ?? 5);
  const maxRetryAfter = policy.maxRetryAfterMs ?? 300_000;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(deps.signal);
    try {
      return await fn(attempt);
    } catch (e) {
      if (!isLlmError(e) || !e.retryable || attempt >= maxAttempts) throw e;
      if (e.retryAfterMs !== undefined && e.retryAfterMs > maxRetryAfter) throw e;
      throwIfAborted(deps.signal);
      const delay = backoffDelay(attempt, e, policy, random);
      deps.onRetry?.(e, attempt, delay);
      await clock.sleep(delay, deps.signal);
    }
  }
}

/**
 * Milliseconds to wait from a Retry-After value: delta-seconds ("120") or an
 * HTTP date. Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const when = Date.parse(v);
  if (Number.isNaN(when)) return undefined;
  return Math.max(0, when - nowMs);
}
