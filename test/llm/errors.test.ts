// Every error class, per wire format, over real HTTP; and API keys never leak into errors.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmError, type LlmErrorKind, redact } from '../../src/core/llm/errors.ts';
import { isLocalUrl } from '../../src/core/llm/http.ts';
import { createProvider } from '../../src/core/llm/provider.ts';
import type { ProviderKind } from '../../src/core/llm/types.ts';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../fake-provider/server.ts';
import { browserFetch } from './browser-fetch.ts';

const KEY = 'sk-live-ABCDEFGHIJKLMNOP-0123456789';
const request = { model: 'spec-model', messages: [{ role: 'user' as const, content: 'Specify sys_close.' }], maxTokens: 100 };

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

async function failure(kind: ProviderKind, reply: FakeReply, baseUrl = `${fake.url}/v1`): Promise<LlmError> {
  fake.enqueue(reply);
  const e = await createProvider({ kind, baseUrl, apiKey: KEY, timeoutMs: 5000 })
    .complete(request)
    .catch((x: unknown) => x);
  expect(e).toBeInstanceOf(LlmError);
  return e as LlmError;
}

function expectNoKey(e: LlmError): void {
  const all = `${e.message}\n${e.detail ?? ''}\n${JSON.stringify(e)}\n${e.stack ?? ''}`;
  expect(all).not.toContain(KEY);
  expect(all).not.toContain(KEY.slice(-4));
  expect(all).not.toContain('ABCDEF');
}

const WIRES: ProviderKind[] = ['openai', 'anthropic', 'gemini', 'openai-compatible'];
const CASES: [FakeReply, LlmErrorKind, string][] = [
  [{ kind: 'auth' }, 'auth', 'LLM001'],
  [{ kind: 'unknown-model' }, 'unknown-model', 'LLM002'],
  [{ kind: 'quota' }, 'quota', 'LLM006'],
  [{ kind: 'context-too-long' }, 'context-length', 'LLM007'],
  [{ kind: 'rate-limit', retryAfter: '3' }, 'rate-limited', 'LLM008'],
  [{ kind: 'server-error' }, 'server', 'LLM009'],
  [{ kind: 'malformed' }, 'malformed', 'LLM010'],
  [{ kind: 'wrong-shape' }, 'malformed', 'LLM010'],
];

describe.each(WIRES)('%s error bodies', (wire) => {
  it.each(CASES)('%o is a %s error (%s) without the key', async (reply, kind, code) => {
    const e = await failure(wire, reply);
    expect(e.kind).toBe(kind);
    expect(e.code).toBe(code);
    expect(e.provider).toBe(wire);
    expectNoKey(e);
  });
});

describe('error details', () => {
  it('a rate limit carries Retry-After and is retryable; quota is fatal', async () => {
    const rl = await failure('openai', { kind: 'rate-limit', retryAfter: '3' });
    expect(rl.retryAfterMs).toBe(3000);
    expect(rl.retryable).toBe(true);
    expect(rl.fatal).toBe(false);
    const q = await failure('openai', { kind: 'quota' });
    expect(q.retryable).toBe(false);
    expect(q.fatal).toBe(true);
    expect(q.message).toMatch(/quota or credit/);
  });

  it("Gemini's RetryInfo delay is used when there is no Retry-After header", async () => {
    const e = await failure('gemini', { kind: 'rate-limit' });
    expect(e.retryAfterMs).toBe(2000);
  });

  it('the unknown-model message names the model', async () => {
    const e = await failure('anthropic', { kind: 'unknown-model' });
    expect(e.message).toContain('"spec-model"');
    expect(e.status).toBe(404);
  });

  it('Anthropic 529 overloaded is a retryable server error', async () => {
    const e = await failure('anthropic', {
      kind: 'raw',
      status: 529,
      body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    });
    expect(e.kind).toBe('server');
    expect(e.retryable).toBe(true);
  });

  it('OpenRouter and DeepSeek say 402 when the balance is empty', async () => {
    const e = await failure('openai-compatible', { kind: 'raw', status: 402, body: '{"error":{"message":"Insufficient Balance"}}' });
    expect(e.kind).toBe('quota');
  });

  it('vLLM context overflow (400 with its own words) is context-length', async () => {
    const e = await failure('openai-compatible', {
      kind: 'raw',
      status: 400,
      body: JSON.stringify({ object: 'error', message: "This model's maximum context length is 8192 tokens. However, you requested 30000 tokens.", type: 'BadRequestError', code: 400 }),
    });
    expect(e.kind).toBe('context-length');
  });

  it('Ollama missing model (404 with a plain error string) is unknown-model', async () => {
    const e = await failure('openai-compatible', { kind: 'raw', status: 404, body: '{"error":"model \\"qwen9\\" not found, try pulling it first"}' });
    expect(e.kind).toBe('unknown-model');
    expect(e.detail).toContain('try pulling it first');
  });

  it('a key echoed verbatim by a server is removed from the message', async () => {
    const e = await failure('openai-compatible', { kind: 'raw', status: 401, body: JSON.stringify({ error: { message: `bad key ${KEY}` } }) });
    expect(e.kind).toBe('auth');
    expectNoKey(e);
  });

  it('the fake server checks the key itself: a wrong key is auth, the right one passes', async () => {
    const strict = await startFakeProvider({ key: 'right-key-000000' });
    try {
      strict.respond(() => ({ kind: 'text', text: 'ok' }));
      const wrong = createProvider({ kind: 'anthropic', baseUrl: strict.url, apiKey: 'wrong-key-111111' });
      await expect(wrong.complete(request)).rejects.toMatchObject({ kind: 'auth' });
      const right = createProvider({ kind: 'anthropic', baseUrl: strict.url, apiKey: 'right-key-000000' });
      await expect(right.complete(request)).resolves.toMatchObject({ text: 'ok' });
    } finally {
      await strict.close();
    }
  });

  it('redact removes the key, masked forms and fragments', () => {
    const text = `key ${KEY}, masked sk-l****6789, fragment GHIJKLMN, other words stay`;
    const out = redact(text, [KEY]);
    expect(out).not.toContain(KEY);
    expect(out).not.toContain('6789');
    expect(out).not.toContain('GHIJKL');
    expect(out).toContain('other words stay');
  });
});

describe('unreachable servers and CORS', () => {
  async function closedPort(): Promise<number> {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  }

  it('a local server that is down is local-unreachable, with the Ollama fix in the message', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    const e = await createProvider({ kind: 'openai-compatible', baseUrl: base })
      .complete(request)
      .then(() => undefined as never, (x: unknown) => x as LlmError);
    expect(e.kind).toBe('local-unreachable');
    expect(e.code).toBe('LLM004');
    expect(e.message).toContain(base);
    expect(e.fatal).toBe(true);
  });

  it('in a browser, a server refusing the origin is a CORS error naming the fix', async () => {
    const refusing = await startFakeProvider({ cors: 'refuse' });
    try {
      const base = `${refusing.url}/v1`;
      const p = createProvider({ kind: 'openai-compatible', baseUrl: base }, { fetch: browserFetch('https://osvlab.example') });
      const e = await p.complete(request).then(() => undefined as never, (x: unknown) => x as LlmError);
      expect(e.kind).toBe('cors');
      expect(e.code).toBe('LLM003');
      expect(e.message).toMatch(/OLLAMA_ORIGINS/);
      expect(e.message).toMatch(/LM Studio/);
      expect(refusing.preflights.length).toBeGreaterThan(0);
      expect(refusing.requests).toHaveLength(0);
    } finally {
      await refusing.close();
    }
  });

  it('in a browser, the same server with CORS allowed answers normally', async () => {
    const allowing = await startFakeProvider({ cors: 'allow' });
    try {
      allowing.enqueue({ kind: 'text', text: 'through' });
      const p = createProvider({ kind: 'anthropic', baseUrl: allowing.url, apiKey: KEY }, { fetch: browserFetch('https://osvlab.example') });
      expect((await p.complete(request)).text).toBe('through');
      const pre = allowing.preflights[0];
      expect(pre.headers['access-control-request-headers']).toContain('anthropic-dangerous-direct-browser-access');
      expect(pre.headers.origin).toBe('https://osvlab.example');
    } finally {
      await allowing.close();
    }
  });

  it('in a browser, a dead local server is unreachable, not CORS', async () => {
    const base = `http://localhost:${await closedPort()}`;
    const p = createProvider({ kind: 'openai-compatible', baseUrl: base }, { fetch: browserFetch('https://osvlab.example') });
    const e = await p.complete(request).then(() => undefined as never, (x: unknown) => x as LlmError);
    expect(e.kind).toBe('local-unreachable');
  });

  it('the LM Studio port gets the LM Studio fix', async () => {
    const { corsError } = await import('../../src/core/llm/errors.ts');
    expect(corsError('http://localhost:1234/v1', {}).message).toMatch(/Enable CORS/);
    expect(corsError('http://localhost:11434/v1', {}).message).toMatch(/OLLAMA_ORIGINS/);
  });

  it('knows local addresses from remote ones', () => {
    for (const u of ['http://localhost:11434', 'http://127.0.0.1:8000/v1', 'http://[::1]:1234', 'http://192.168.1.20:8000', 'http://gpu.local:8000']) {
      expect(isLocalUrl(u)).toBe(true);
    }
    for (const u of ['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'not a url']) expect(isLocalUrl(u)).toBe(false);
  });
});
