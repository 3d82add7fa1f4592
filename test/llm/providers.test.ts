// Provider adapters over real HTTP against the fake provider, one block per wire format.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LlmError } from '../../src/core/llm/errors.ts';
import { createProvider } from '../../src/core/llm/provider.ts';
import type { CompletionRequest, ProviderKind } from '../../src/core/llm/types.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';

const KEY = 'sk-test-SECRETKEY-1234567890';

const request: CompletionRequest = {
  model: 'm-1',
  messages: [
    { role: 'system', content: 'You write hv6 specs.' },
    { role: 'user', content: 'Specify sys_dup.' },
  ],
  temperature: 0.2,
  topP: 0.9,
  maxTokens: 512,
  seed: 7,
  stop: ['###'],
};

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

function provider(kind: ProviderKind, apiKey: string | null = KEY) {
  return createProvider({ kind, baseUrl: `${fake.url}/v1`, apiKey: apiKey ?? undefined, timeoutMs: 5000 });
}

describe('OpenAI chat completions', () => {
  it('sends the request in OpenAI form and reads text, model, usage and finish reason', async () => {
    fake.enqueue({ kind: 'text', text: 'answer', model: 'm-1-2025', usage: { input: 11, output: 3 } });
    const c = await provider('openai').complete(request);
    expect(c).toMatchObject({ text: 'answer', model: 'm-1-2025', usage: { input: 11, output: 3 }, finishReason: 'stop' });
    expect(c.latencyMs).toBeGreaterThanOrEqual(0);
    const [r] = fake.requests;
    expect(r.path).toBe('/v1/chat/completions');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.body).toEqual({
      model: 'm-1',
      messages: request.messages,
      temperature: 0.2,
      top_p: 0.9,
      max_completion_tokens: 512,
      seed: 7,
      stop: ['###'],
    });
    expect(Object.keys(r.headers).some((h) => h.startsWith('x-stainless'))).toBe(false);
  });

  it('maps finish_reason "length" to length', async () => {
    fake.enqueue({ kind: 'text', text: '```python\ndef f(', finish: 'length' });
    const c = await provider('openai').complete(request);
    expect(c.finishReason).toBe('length');
    expect(c.rawFinishReason).toBe('length');
  });

  it('refuses to call OpenAI without a key, sending nothing', async () => {
    await expect(provider('openai', null).complete(request)).rejects.toMatchObject({ kind: 'auth' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('OpenAI-compatible servers by base URL', () => {
  it('uses max_tokens and works without a key (Ollama, LM Studio, vLLM)', async () => {
    fake.enqueue({ kind: 'text', text: 'local answer' });
    const c = await provider('openai-compatible', null).complete(request);
    expect(c.text).toBe('local answer');
    const [r] = fake.requests;
    expect(r.headers.authorization).toBeUndefined();
    expect(r.body.max_tokens).toBe(512);
    expect(r.body.max_completion_tokens).toBeUndefined();
  });

  it('needs a base URL', () => {
    expect(() => createProvider({ kind: 'openai-compatible' })).toThrow(/base URL/);
  });
});

describe('Anthropic Messages', () => {
  it('sends the version and browser-access headers, system on top, and reads the text blocks', async () => {
    fake.enqueue({ kind: 'text', text: 'claude says', usage: { input: 20, output: 4 } });
    const c = await provider('anthropic').complete(request);
    expect(c).toMatchObject({ text: 'claude says', model: 'm-1', usage: { input: 20, output: 4 }, finishReason: 'stop', rawFinishReason: 'end_turn' });
    const [r] = fake.requests;
    expect(r.path).toBe('/v1/messages');
    expect(r.headers['x-api-key']).toBe(KEY);
    expect(r.headers['anthropic-version']).toBe('2023-06-01');
    expect(r.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(r.body).toEqual({
      model: 'm-1',
      max_tokens: 512,
      system: 'You write hv6 specs.',
      messages: [{ role: 'user', content: 'Specify sys_dup.' }],
      temperature: 0.2,
      top_p: 0.9,
      stop_sequences: ['###'],
    });
  });

  it('maps max_tokens to length', async () => {
    fake.enqueue({ kind: 'text', text: 'cut', finish: 'length' });
    expect((await provider('anthropic').complete(request)).finishReason).toBe('length');
  });
});

describe('Gemini generateContent', () => {
  it('puts the model in the path and the key in a header, never the URL', async () => {
    fake.enqueue({ kind: 'text', text: 'gemini says', model: 'm-1-001', usage: { input: 30, output: 5 } });
    const c = await provider('gemini').complete({ ...request, messages: [...request.messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'again' }] });
    expect(c).toMatchObject({ text: 'gemini says', model: 'm-1-001', usage: { input: 30, output: 5 }, finishReason: 'stop' });
    const [r] = fake.requests;
    expect(r.path).toBe('/v1/models/m-1:generateContent');
    expect(r.path).not.toContain(KEY);
    expect(r.headers['x-goog-api-key']).toBe(KEY);
    expect(r.body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Specify sys_dup.' }] },
        { role: 'model', parts: [{ text: 'ok' }] },
        { role: 'user', parts: [{ text: 'again' }] },
      ],
      systemInstruction: { parts: [{ text: 'You write hv6 specs.' }] },
      generationConfig: { temperature: 0.2, topP: 0.9, maxOutputTokens: 512, seed: 7, stopSequences: ['###'] },
    });
  });

  it('maps MAX_TOKENS to length', async () => {
    fake.enqueue({ kind: 'text', text: 'cut', finish: 'length' });
    expect((await provider('gemini').complete(request)).finishReason).toBe('length');
  });
});

describe('timeouts and cancellation', () => {
  it('abandons a request that takes longer than the timeout', async () => {
    fake.enqueue({ kind: 'slow', ms: 3000, reply: { kind: 'text', text: 'late' } });
    const p = createProvider({ kind: 'openai', baseUrl: fake.url, apiKey: KEY, timeoutMs: 150 });
    const e = await p.complete(request).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LlmError);
    expect((e as LlmError).kind).toBe('timeout');
    expect((e as LlmError).retryable).toBe(true);
  });

  it('stops an in-flight request when the signal aborts', async () => {
    fake.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const pending = provider('anthropic').complete(request, { signal: controller.signal });
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', code: 'LLM013' });
  });

  it('sends nothing when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider('gemini').complete(request, { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(fake.requests).toHaveLength(0);
  });
});
