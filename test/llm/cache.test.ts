// The response cache: what makes a hit, what never goes in, and that keys stay out of it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryResponseCache, cacheKey } from '../../src/core/llm/cache.ts';
import { LlmClient } from '../../src/core/llm/client.ts';
import { createProvider } from '../../src/core/llm/provider.ts';
import type { CompletionRequest } from '../../src/core/llm/types.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { FakeClock } from './fake-clock.ts';

const KEY_A = 'sk-cache-key-AAAAAAAAAA';
const KEY_B = 'sk-cache-key-BBBBBBBBBB';
const base: CompletionRequest = { model: 'm', messages: [{ role: 'user', content: 'Specify sys_dup.' }], temperature: 0, sample: 0 };

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  let n = 0;
  fake.respond(() => ({ kind: 'text', text: `answer ${++n}` }));
});

function client(cache: MemoryResponseCache, apiKey = KEY_A) {
  return new LlmClient({
    provider: createProvider({ kind: 'openai', baseUrl: fake.url, apiKey }),
    cache,
    clock: new FakeClock(),
    retry: { maxAttempts: 2 },
  });
}

describe('response cache', () => {
  it('a second identical request is answered from the cache without a request', async () => {
    const cache = new MemoryResponseCache();
    const first = await client(cache).complete(base);
    const second = await client(cache).complete(base);
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(second.requests).toBe(0);
    expect(second.completion.text).toBe(first.completion.text);
    expect(fake.requests).toHaveLength(1);
  });

  it('the cached completion drops the raw body', async () => {
    const cache = new MemoryResponseCache();
    const first = await client(cache).complete(base);
    expect(first.completion.raw).toBeDefined();
    const entry = await cache.getCached(first.cacheKey);
    expect(entry?.completion.raw).toBeUndefined();
    expect(entry?.completion.usage.output).toBeGreaterThan(0);
  });

  it('each sample index, model, message and parameter change is a miss', async () => {
    const cache = new MemoryResponseCache();
    const c = client(cache);
    await c.complete(base);
    await c.complete({ ...base, sample: 1 });
    await c.complete({ ...base, model: 'm2' });
    await c.complete({ ...base, temperature: 0.7 });
    await c.complete({ ...base, maxTokens: 10 });
    await c.complete({ ...base, messages: [{ role: 'user', content: 'Specify sys_close.' }] });
    expect(fake.requests).toHaveLength(6);
    expect(cache.size).toBe(6);
  });

  it('the key depends on provider and base URL but not on the API key', async () => {
    const k = await cacheKey('openai', 'http://h/v1', base);
    expect(await cacheKey('openai', 'http://h/v1/', base)).toBe(k);
    expect(await cacheKey('openai-compatible', 'http://h/v1', base)).not.toBe(k);
    expect(await cacheKey('openai', 'http://other/v1', base)).not.toBe(k);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    const cache = new MemoryResponseCache();
    await client(cache, KEY_A).complete(base);
    const viaB = await client(cache, KEY_B).complete(base);
    expect(viaB.cached).toBe(true);
    const stored = JSON.stringify(await cache.getCached(viaB.cacheKey));
    expect(stored).not.toContain(KEY_A);
    expect(stored).not.toContain('AAAAAA');
  });

  it('errors are never cached: the next call asks again', async () => {
    const cache = new MemoryResponseCache();
    fake.enqueue({ kind: 'context-too-long' });
    await expect(client(cache).complete(base)).rejects.toMatchObject({ kind: 'context-length' });
    expect(cache.size).toBe(0);
    const again = await client(cache).complete(base);
    expect(again.cached).toBe(false);
    expect(fake.requests).toHaveLength(2);
  });

  it('a request that fails after retries leaves nothing behind', async () => {
    const cache = new MemoryResponseCache();
    fake.enqueue({ kind: 'server-error' }, { kind: 'server-error' });
    await expect(client(cache).complete(base)).rejects.toMatchObject({ kind: 'server' });
    expect(cache.size).toBe(0);
  });
});
