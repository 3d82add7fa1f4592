/**
 * Provider faults (issue 12, "provider faults" row): a connection closed,
 * reset or refused, a timeout, 408/409 are transient and retried with
 * backoff; a hung request does not hold back the others after a 429.
 * Real HTTP to the fake provider and to real closed ports.
 */
import { type Server, createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/llm/clock.ts';
import { LlmClient } from '../../src/core/llm/client.ts';
import { LlmError } from '../../src/core/llm/errors.ts';
import { AdaptiveLimiter } from '../../src/core/llm/limiter.ts';
import { createProvider } from '../../src/core/llm/provider.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { browserFetch } from './browser-fetch.ts';
import { FakeClock } from './fake-clock.ts';

const req = (content: string) => ({ model: 'm', messages: [{ role: 'user' as const, content }] });

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function client(baseUrl: string, opts: { clock?: Clock; timeoutMs?: number; limiter?: AdaptiveLimiter; maxAttempts?: number } = {}) {
  const clock = opts.clock ?? new FakeClock();
  return new LlmClient({
    provider: createProvider({ kind: 'openai-compatible', baseUrl, timeoutMs: opts.timeoutMs ?? 5000 }),
    clock,
    limiter: opts.limiter,
    random: () => 0.5,
    retry: { maxAttempts: opts.maxAttempts ?? 5, baseMs: 1000 },
  });
}

async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('transient connection failures are retried', () => {
  it('a connection reset mid-request (server killed) is a retryable network error, and the retry succeeds', async () => {
    fake.enqueue({ kind: 'reset' });
    const e = (await createProvider({ kind: 'openai-compatible', baseUrl: `${fake.url}/v1` }).complete(req('a')).catch((x: unknown) => x)) as LlmError;
    expect(e).toBeInstanceOf(LlmError);
    expect([e.kind, e.retryable, e.fatal]).toEqual(['network', true, false]);
    expect(e.message).not.toMatch(/CORS|origin/i);

    fake.enqueue({ kind: 'reset' }, { kind: 'reset' }, { kind: 'text', text: 'back' });
    const r = await client(`${fake.url}/v1`).complete(req('b'));
    expect([r.completion.text, r.requests]).toEqual(['back', 3]);
  });

  it('a refused local connection is retried with backoff; a server that comes back answers', async () => {
    const port = await closedPort();
    let server: Server | undefined;
    const clock: Clock = {
      now: () => Date.now(),
      // The first backoff wait is when the server restarts.
      sleep: async () => {
        if (server) return;
        server = createServer((_, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ model: 'm', choices: [{ message: { content: 'restarted' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1 } })),
        );
        await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
      },
    };
    try {
      const r = await client(`http://127.0.0.1:${port}/v1`, { clock }).complete(req('c'));
      expect([r.completion.text, r.requests]).toEqual(['restarted', 2]);
    } finally {
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    }
  });

  it('a local server that stays down is retried to the cap, then stops the run (fatal), with no CORS advice in Node', async () => {
    const clock = new FakeClock();
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    const e = (await client(base, { clock, maxAttempts: 3 }).complete(req('d')).catch((x: unknown) => x)) as LlmError;
    expect([e.kind, e.retryable, e.fatal]).toEqual(['local-unreachable', true, true]);
    expect(clock.sleeps).toEqual([750, 1500]);
    expect(e.message).toContain('ECONNREFUSED');
    expect(e.message).not.toMatch(/CORS|origin/i);
  });

  it('a request that hangs past the per-request timeout is abandoned and retried', async () => {
    fake.enqueue({ kind: 'hang' }, { kind: 'text', text: 'second try' });
    const r = await client(`${fake.url}/v1`, { timeoutMs: 300 }).complete(req('e'));
    expect([r.completion.text, r.requests]).toEqual(['second try', 2]);
  });

  it('408 and 409 are retried', async () => {
    fake.enqueue({ kind: 'raw', status: 408, body: '{"error":{"message":"Request timeout"}}' }, { kind: 'raw', status: 409, body: '{"error":{"message":"Conflict"}}' }, { kind: 'text', text: 'ok' });
    const r = await client(`${fake.url}/v1`).complete(req('f'));
    expect(r.requests).toBe(3);
  });
});

describe('in a browser (only "Failed to fetch", no cause)', () => {
  it('a server that answered before and then drops a connection is a lost connection (retried), not CORS', async () => {
    const other = await startFakeProvider();
    try {
      const p = createProvider({ kind: 'openai-compatible', baseUrl: `${other.url}/v1` }, { fetch: browserFetch('https://osvlab.example') });
      other.enqueue({ kind: 'text', text: 'first' }, { kind: 'reset' });
      expect((await p.complete(req('g'))).text).toBe('first');
      const e = (await p.complete(req('h')).catch((x: unknown) => x)) as LlmError;
      expect([e.kind, e.retryable, e.fatal]).toEqual(['network', true, false]);
      expect(e.message).not.toMatch(/CORS/);
    } finally {
      await other.close();
    }
  });

  it('a local server killed mid-run is unreachable (retried, then fatal) with no CORS advice, and names Local Network Access', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    const p = createProvider({ kind: 'openai-compatible', baseUrl: base }, { fetch: browserFetch('https://osvlab.example') });
    const e = (await p.complete(req('i')).catch((x: unknown) => x)) as LlmError;
    expect([e.kind, e.retryable]).toEqual(['local-unreachable', true]);
    expect(e.message).not.toMatch(/CORS|OLLAMA_ORIGINS/);
    expect(e.message).toMatch(/local network/i);
  });
});

describe('one hung request never blocks the others', () => {
  it('after 429s cut the limit to one, a prompt does not wait behind a hung request', async () => {
    const limiter = new AdaptiveLimiter({ max: 4, stallMs: 200 });
    limiter.onRateLimited();
    limiter.onRateLimited();
    expect(limiter.limit).toBe(1);
    const c = client(`${fake.url}/v1`, { limiter, timeoutMs: 20_000 });
    fake.respond((r) => (r.prompt === 'hung' ? { kind: 'hang' } : { kind: 'text', text: 'quick' }));
    const ctl = new AbortController();
    const hung = c.complete(req('hung'), { signal: ctl.signal }).catch((x: unknown) => x);
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    const quick = await c.complete(req('other'));
    expect(quick.completion.text).toBe('quick');
    expect(Date.now() - started).toBeLessThan(5000);
    ctl.abort();
    expect(await hung).toMatchObject({ kind: 'aborted' });
  });

  it('a stalled request still counts against the configured maximum', async () => {
    const l = new AdaptiveLimiter({ max: 1, stallMs: 20 });
    const a = await l.acquire();
    let second = false;
    const b = l.acquire().then((r) => ((second = true), r));
    await new Promise((r) => setTimeout(r, 80));
    expect(second).toBe(false);
    a();
    (await b)();
  });
});
