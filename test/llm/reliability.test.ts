// Retries, backoff, Retry-After, adaptive concurrency and cancellation, through the real client and HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LlmClient } from '../../src/core/llm/client.ts';
import { LlmError, rateLimitedError, serverError } from '../../src/core/llm/errors.ts';
import { AdaptiveLimiter } from '../../src/core/llm/limiter.ts';
import { createProvider } from '../../src/core/llm/provider.ts';
import { backoffDelay, parseRetryAfter, withRetry } from '../../src/core/llm/retry.ts';
import type { ProviderKind } from '../../src/core/llm/types.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { FakeClock } from './fake-clock.ts';

const KEY = 'sk-test-reliability-000000';
const req = (content = 'Specify sys_dup.', sample = 0) => ({ model: 'm', messages: [{ role: 'user' as const, content }], sample });

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.respond(() => ({ kind: 'raw', status: 500, body: '{"error":{"message":"unscripted"}}' }));
});

function client(clock: FakeClock, extra: { limiter?: AdaptiveLimiter; kind?: ProviderKind; maxAttempts?: number } = {}) {
  return new LlmClient({
    provider: createProvider({ kind: extra.kind ?? 'openai', baseUrl: fake.url, apiKey: KEY, timeoutMs: 5000 }, { clock }),
    clock,
    limiter: extra.limiter,
    random: () => 0.5,
    concurrency: 4,
    retry: { maxAttempts: extra.maxAttempts ?? 5, baseMs: 1000, maxDelayMs: 60_000 },
  });
}

describe('Retry-After parsing', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles from the base with equal jitter, capped', () => {
    const e = serverError({});
    expect(backoffDelay(1, e, { baseMs: 1000 }, () => 0)).toBe(500);
    expect(backoffDelay(1, e, { baseMs: 1000 }, () => 1)).toBe(1000);
    expect(backoffDelay(3, e, { baseMs: 1000 }, () => 0.5)).toBe(3000);
    expect(backoffDelay(20, e, { baseMs: 1000, maxDelayMs: 8000 }, () => 1)).toBe(8000);
  });

  it('uses the Retry-After value when there is one', () => {
    expect(backoffDelay(4, rateLimitedError({ retryAfterMs: 2500 }), {}, () => 0)).toBe(2500);
  });
});

describe('retries over HTTP with an injected clock', () => {
  it('retries 500s with growing waits and then succeeds', async () => {
    const clock = new FakeClock();
    fake.enqueue({ kind: 'server-error' }, { kind: 'server-error', status: 503 }, { kind: 'text', text: 'finally' });
    const r = await client(clock).complete(req());
    expect(r.completion.text).toBe('finally');
    expect(r.requests).toBe(3);
    expect(fake.requests).toHaveLength(3);
    // random 0.5: 0.75 * base * 2^(n-1)
    expect(clock.sleeps).toEqual([750, 1500]);
  });

  it('honours Retry-After in seconds', async () => {
    const clock = new FakeClock();
    fake.enqueue({ kind: 'rate-limit', retryAfter: '7' }, { kind: 'text', text: 'ok' });
    await client(clock).complete(req());
    expect(clock.sleeps).toEqual([7000]);
  });

  it('honours Retry-After as an HTTP date, measured on the injected clock', async () => {
    const clock = new FakeClock();
    const at = new Date(clock.now() + 12_000).toUTCString();
    fake.enqueue({ kind: 'rate-limit', retryAfter: at }, { kind: 'text', text: 'ok' });
    await client(clock).complete(req());
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('retries network-level garbage (malformed JSON) but not a bad key', async () => {
    const clock = new FakeClock();
    fake.enqueue({ kind: 'malformed' }, { kind: 'text', text: 'ok' });
    expect((await client(clock).complete(req('a'))).requests).toBe(2);
    fake.requests.length = 0;
    fake.enqueue({ kind: 'auth' });
    await expect(client(clock).complete(req('b'))).rejects.toMatchObject({ kind: 'auth' });
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const clock = new FakeClock();
    fake.enqueue({ kind: 'server-error' }, { kind: 'server-error' }, { kind: 'server-error' });
    await expect(client(clock, { maxAttempts: 3 }).complete(req())).rejects.toMatchObject({ kind: 'server' });
    expect(fake.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('does not wait out an absurd Retry-After', async () => {
    const clock = new FakeClock();
    fake.enqueue({ kind: 'rate-limit', retryAfter: '86400' });
    await expect(client(clock).complete(req())).rejects.toMatchObject({ kind: 'rate-limited', retryAfterMs: 86_400_000 });
    expect(clock.sleeps).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('adaptive concurrency', () => {
  it('halves on 429 and grows back by one after a run of successes', () => {
    const l = new AdaptiveLimiter({ max: 8, recoverAfter: 3 });
    l.onRateLimited();
    expect(l.limit).toBe(4);
    l.onRateLimited();
    l.onRateLimited();
    l.onRateLimited();
    expect(l.limit).toBe(1);
    l.onSuccess();
    l.onSuccess();
    expect(l.limit).toBe(1);
    l.onSuccess();
    expect(l.limit).toBe(2);
    for (let i = 0; i < 30; i++) l.onSuccess();
    expect(l.limit).toBe(8);
  });

  it('never lets more than the limit through', async () => {
    const l = new AdaptiveLimiter({ max: 2 });
    const a = await l.acquire();
    const b = await l.acquire();
    let third = false;
    const c = l.acquire().then((r) => {
      third = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(third).toBe(false);
    expect(l.inFlight).toBe(2);
    a();
    (await c)();
    b();
    expect(l.inFlight).toBe(0);
  });

  it('a 429 storm cuts the requests in flight at the server to one', async () => {
    const clock = new FakeClock();
    const c = client(clock, { limiter: new AdaptiveLimiter({ max: 8, recoverAfter: 100 }) });
    // Every storm reply is slow (500 ms) so the first wave of 8 overlaps at the server even on a
    // loaded machine (40 ms was not always enough); it is rate limited.
    let n = 0;
    let afterStorm = 0;
    fake.respond(() => {
      if (++n <= 8) return { kind: 'slow', ms: 500, reply: { kind: 'rate-limit', retryAfter: '1' } };
      afterStorm = Math.max(afterStorm, fake.inFlight);
      return { kind: 'slow', ms: 10, reply: { kind: 'text', text: 'ok' } };
    });
    await Promise.all(Array.from({ length: 8 }, (_, i) => c.complete(req(`task ${i}`))));
    expect(fake.maxInFlight).toBe(8);
    expect(c.limiter.limit).toBe(1);
    expect(afterStorm).toBe(1);
    expect(fake.requests).toHaveLength(16);
  });

  it('cancelling a waiter for a slot sends nothing', async () => {
    const l = new AdaptiveLimiter({ max: 1 });
    const release = await l.acquire();
    const ctl = new AbortController();
    const p = l.acquire(ctl.signal);
    ctl.abort();
    await expect(p).rejects.toMatchObject({ kind: 'aborted' });
    release();
    expect(l.inFlight).toBe(0);
  });
});

describe('cancellation in the client', () => {
  it('aborting during a backoff wait stops at once with no further request', async () => {
    const clock = new FakeClock();
    const ctl = new AbortController();
    clock.onSleep = () => ctl.abort();
    fake.enqueue({ kind: 'server-error' }, { kind: 'text', text: 'never fetched' });
    await expect(client(clock).complete(req(), { signal: ctl.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(fake.requests).toHaveLength(1);
  });

  it('aborting mid-request abandons it and retries nothing', async () => {
    const clock = new FakeClock();
    const ctl = new AbortController();
    fake.enqueue({ kind: 'hang' }, { kind: 'text', text: 'never fetched' });
    const p = client(clock).complete(req(), { signal: ctl.signal });
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    ctl.abort();
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LlmError);
    expect((e as LlmError).kind).toBe('aborted');
    await new Promise((r) => setTimeout(r, 30));
    expect(fake.requests).toHaveLength(1);
  });

  it('withRetry checks the signal before every try', async () => {
    const ctl = new AbortController();
    let calls = 0;
    const p = withRetry(
      async () => {
        calls++;
        ctl.abort();
        throw serverError({});
      },
      { maxAttempts: 5 },
      { clock: new FakeClock(), signal: ctl.signal },
    );
    await expect(p).rejects.toMatchObject({ kind: 'aborted' });
    expect(calls).toBe(1);
  });
});
