/**
 * A concurrency limiter that adapts to rate limits: the limit halves on each
 * 429 and grows back by one after a run of successes (multiplicative
 * decrease, additive increase), never above the configured maximum or
 * below one.
 *
 * A request that has been in flight longer than `stallMs` stops counting
 * against that lowered limit (it still counts against the configured
 * maximum): otherwise, after a 429 has cut the limit to one, a single hung
 * request would hold back every other prompt until its timeout.
 */
import { abortedError } from './errors.ts';

export interface LimiterOptions {
  /** The most requests in flight at once. */
  readonly max: number;
  /** Successes needed at the current limit before it grows by one (default 8). */
  readonly recoverAfter?: number;
  /** In flight this long, a request no longer counts against the lowered limit (default 30 000 ms). */
  readonly stallMs?: number;
}

export class AdaptiveLimiter {
  readonly max: number;
  private current: number;
  private active = 0;
  /** Requests in flight for longer than stallMs. */
  private stalled = 0;
  private successes = 0;
  private readonly recoverAfter: number;
  private readonly stallMs: number;
  private readonly waiting: { resolve: () => void; signal?: AbortSignal; onAbort?: () => void }[] = [];

  constructor(options: LimiterOptions) {
    this.max = Math.max(1, Math.floor(options.max));
    this.current = this.max;
    this.recoverAfter = Math.max(1, options.recoverAfter ?? 8);
    this.stallMs = Math.max(1, options.stallMs ?? 30_000);
  }

  private canStart(): boolean {
    return this.active - this.stalled < this.current && this.active < this.max;
  }

  /** The current limit. */
  get limit(): number {
    return this.current;
  }

  /** Requests holding a slot now. */
  get inFlight(): number {
    return this.active;
  }

  /** Waits for a slot; returns its release function (call it exactly once). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw abortedError();
    if (this.waiting.length === 0 && this.canStart()) {
      this.active++;
    } else {
      // pump() counts the slot as taken when it wakes us.
      await new Promise<void>((resolve, reject) => {
        const entry: { resolve: () => void; signal?: AbortSignal; onAbort?: () => void } = { resolve, signal };
        if (signal) {
          entry.onAbort = () => {
            const i = this.waiting.indexOf(entry);
            if (i >= 0) this.waiting.splice(i, 1);
            reject(abortedError());
          };
          signal.addEventListener('abort', entry.onAbort, { once: true });
        }
        this.waiting.push(entry);
      });
    }
    let released = false;
    let stalled = false;
    // A wall-clock timer, like the request timeout: it measures a real request.
    const timer = setTimeout(() => {
      stalled = true;
      this.stalled++;
      this.pump();
    }, this.stallMs);
    return () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      if (stalled) this.stalled--;
      this.active--;
      this.pump();
    };
  }

  /** A 429 came back: halve the limit. */
  onRateLimited(): void {
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.successes = 0;
  }

  /** A request succeeded: after enough of them, allow one more in flight. */
  onSuccess(): void {
    if (this.current >= this.max) return;
    this.successes++;
    if (this.successes >= this.recoverAfter) {
      this.current++;
      this.successes = 0;
      this.pump();
    }
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.canStart()) {
      const next = this.waiting.shift()!;
      if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort);
      this.active++;
      next.resolve();
    }
  }
}
