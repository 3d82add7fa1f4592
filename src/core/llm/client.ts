/**
 * The reliable way to ask a model: response cache first, then the provider
 * through the adaptive concurrency limiter, with retries and backoff. One
 * client per run shares its limiter across every task of the run.
 */
import { type CacheEntry, type ResponseCacheStore, cacheKey, cacheable } from './cache.ts';
import { type Clock, realClock, throwIfAborted } from './clock.ts';
import { type LlmError, isLlmError } from './errors.ts';
import { AdaptiveLimiter } from './limiter.ts';
import { type RetryPolicy, withRetry } from './retry.ts';
import type { Completion, CompletionRequest, Provider } from './types.ts';
import { validatedUsage } from './usage.ts';

export interface ClientOptions {
  readonly provider: Provider;
  readonly cache?: ResponseCacheStore;
  /** The most requests in flight (default 4); halves on 429 and recovers slowly. */
  readonly concurrency?: number;
  /** In flight this long, a request stops holding back others after a 429 (default 30 000 ms; see limiter.ts). */
  readonly stallMs?: number;
  /** Or a limiter shared with other clients. */
  readonly limiter?: AdaptiveLimiter;
  readonly retry?: RetryPolicy;
  readonly clock?: Clock;
  readonly random?: () => number;
  /** Told about each retry (after a failure, before the wait). */
  readonly onRetry?: (error: LlmError, attempt: number, delayMs: number) => void;
}

export interface ClientResult {
  readonly completion: Completion;
  /** Answered from the cache: no request was sent. */
  readonly cached: boolean;
  readonly cacheKey: string;
  /** HTTP requests sent for this answer (0 when cached). */
  readonly requests: number;
}

export class LlmClient {
  readonly provider: Provider;
  readonly limiter: AdaptiveLimiter;
  private readonly options: ClientOptions;
  private readonly clock: Clock;

  constructor(options: ClientOptions) {
    this.options = options;
    this.provider = options.provider;
    this.limiter = options.limiter ?? new AdaptiveLimiter({ max: options.concurrency ?? 4, stallMs: options.stallMs });
    this.clock = options.clock ?? realClock;
  }

  /** The cache key this client would use for a request. */
  keyOf(request: CompletionRequest): Promise<string> {
    return cacheKey(this.provider.kind, this.provider.baseUrl, request);
  }

  /**
   * Answers from the cache, or sends the request (retrying what is worth
   * retrying) and caches the success. Errors are thrown, never cached.
   */
  async complete(
    request: CompletionRequest,
    options: { signal?: AbortSignal; onRetry?: (error: LlmError, attempt: number, delayMs: number) => void } = {},
  ): Promise<ClientResult> {
    const { signal } = options;
    throwIfAborted(signal);
    const key = await this.keyOf(request);
    const hit = await this.options.cache?.getCached(key);
    // An entry written before counts were checked (or edited) is checked as a fresh answer is (usage.ts).
    if (hit) return { completion: { ...hit.completion, usage: validatedUsage(hit.completion.usage) }, cached: true, cacheKey: key, requests: 0 };

    let requests = 0;
    const completion = await withRetry(
      async () => {
        const release = await this.limiter.acquire(signal);
        try {
          throwIfAborted(signal);
          requests++;
          const c = await this.provider.complete(request, { signal });
          this.limiter.onSuccess();
          return { ...c, usage: validatedUsage(c.usage) };
        } catch (e) {
          if (isLlmError(e) && e.kind === 'rate-limited') this.limiter.onRateLimited();
          throw e;
        } finally {
          release();
        }
      },
      this.options.retry,
      {
        clock: this.clock,
        random: this.options.random,
        signal,
        onRetry: (e, n, ms) => {
          this.options.onRetry?.(e, n, ms);
          options.onRetry?.(e, n, ms);
        },
      },
    );
    if (this.options.cache) {
      const entry: CacheEntry = { key, completion: cacheable(completion), createdAt: this.clock.now() };
      await this.options.cache.putCached(entry);
    }
    return { completion, cached: false, cacheKey: key, requests };
  }
}
