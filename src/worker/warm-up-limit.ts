/**
 * A bound on a worker's Z3 warm-up (docs/app.md, "Browser support"). Z3 is
 * ready only after two warm-up checks; on Z3's own threads in Firefox the
 * second now and then never answers, and without a bound the load would
 * wait forever ("Loading Z3…" for good). Past the limit the load fails, and the page's
 * pool replaces the worker as for any failed start (src/worker/web-pool.ts,
 * START_RETRIES).
 *
 * The timer runs on the page, not in the worker: in such a stall no timer
 * of the worker fires any more (its thread is held), so a limit kept there
 * would never end the load.
 */
const WARM_UP_LIMIT_MS = 30_000;

/** Comlink sends an error's name and message, not its class, so the page knows this one by name. */
const NAME = 'WarmUpError';

/** The warm-up did not end within its limit: this worker's Z3 cannot be used. */
export class WarmUpError extends Error {
  constructor(limitMs: number) {
    super(`Z3 did not answer its first checks within ${Math.round(limitMs / 1000)} s (its threads did not start)`);
    this.name = NAME;
  }
}

/** `warmUp`'s promise, or a `WarmUpError` once `limitMs` has passed without it settling. */
export function withinWarmUpLimit<T>(warmUp: Promise<T>, limitMs = WARM_UP_LIMIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new WarmUpError(limitMs)), limitMs)));
  return Promise.race([warmUp, limit]).finally(() => clearTimeout(timer));
}

/** Is `e` a WarmUpError, here or as it arrives from a worker (after the pool's start retries too)? */
export function isWarmUpStall(e: unknown): e is Error {
  return e instanceof Error && e.name === NAME;
}
