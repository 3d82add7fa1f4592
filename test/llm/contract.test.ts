/**
 * Contract tests per provider: response and error bodies in each provider's
 * documented wire format (field names and shapes from the OpenAI chat
 * completions, Anthropic Messages and Gemini generateContent references),
 * served over real HTTP by the fake server, read by the real adapters.
 * Covers thinking/reasoning, refusals, max-token stops, spend caps, quotas
 * and refused sampling parameters (issue 15).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicBody } from '../../src/core/llm/anthropic.ts';
import { LlmError } from '../../src/core/llm/errors.ts';
import { geminiBody } from '../../src/core/llm/gemini.ts';
import { openAiBody } from '../../src/core/llm/openai.ts';
import { createProvider, keyFromEnv } from '../../src/core/llm/provider.ts';
import type { CompletionRequest, ProviderKind } from '../../src/core/llm/types.ts';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../fake-provider/server.ts';

const KEY = 'sk-contract-0000000000';
const request: CompletionRequest = { model: 'm', messages: [{ role: 'user', content: 'Specify sys_dup.' }] };

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const provider = (kind: ProviderKind) => createProvider({ kind, baseUrl: `${fake.url}/v1`, apiKey: KEY, timeoutMs: 5000 });

async function fails(kind: ProviderKind, reply: FakeReply): Promise<LlmError> {
  fake.enqueue(reply);
  const e = await provider(kind).complete(request).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(LlmError);
  return e as LlmError;
}

const raw = (status: number, body: unknown): FakeReply => ({ kind: 'raw', status, body: JSON.stringify(body) });

describe('OpenAI chat completions', () => {
  it('reasoning tokens are inside completion_tokens: counted once, reported apart', async () => {
    fake.enqueue({ kind: 'text', text: 'answer', usage: { input: 50, output: 20, reasoning: 300 } });
    const c = await provider('openai').complete(request);
    expect(c.usage).toEqual({ input: 50, output: 320, reasoning: 300 });
  });
  it('a refusal (message.refusal, content null) is a content-filter stop with no text', async () => {
    fake.enqueue({ kind: 'refusal' });
    const c = await provider('openai').complete(request);
    expect(c).toMatchObject({ text: '', finishReason: 'content-filter', rawFinishReason: 'refusal' });
  });
  it('finish_reason "length" is a max-tokens stop', async () => {
    fake.enqueue({ kind: 'text', text: '```python\ndef f(', finish: 'length' });
    expect((await provider('openai').complete(request)).finishReason).toBe('length');
  });
  it('insufficient_quota (429) is a fatal quota error, not a rate limit', async () => {
    const e = await fails('openai', raw(429, { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }));
    expect([e.kind, e.fatal, e.retryable]).toEqual(['quota', true, false]);
  });
  it("a reasoning model's 400 unsupported_value for temperature is fatal and names the parameter", async () => {
    const e = await fails('openai', raw(400, { error: { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }));
    expect([e.kind, e.code, e.fatal]).toEqual(['unsupported-param', 'LLM015', true]);
    expect(e.message).toContain("'temperature'");
    const p = await fails('openai', raw(400, { error: { message: "Unsupported parameter: 'top_p' is not supported with this model.", type: 'invalid_request_error', param: 'top_p', code: 'unsupported_parameter' } }));
    expect(p.kind).toBe('unsupported-param');
  });
  it('reasoning_effort is sent as is; temperature only when set', () => {
    expect(openAiBody({ ...request, reasoningEffort: 'low' }, false)).toEqual({ model: 'm', messages: request.messages, reasoning_effort: 'low' });
    expect(openAiBody(request, true)).not.toHaveProperty('temperature');
  });
});

describe('Anthropic Messages', () => {
  it('thinking blocks are not the answer; their tokens are in output_tokens', async () => {
    fake.enqueue({ kind: 'text', thinking: 'Let me draft ```python\ndef draft(): pass\n```', text: 'final', usage: { input: 40, output: 10, reasoning: 200 } });
    const c = await provider('anthropic').complete(request);
    expect(c.text).toBe('final');
    expect(c.usage).toEqual({ input: 40, output: 210 });
  });
  it('stop_reason "refusal" and "max_tokens"', async () => {
    fake.enqueue({ kind: 'refusal' }, { kind: 'text', text: 'cut', finish: 'length' });
    expect(await provider('anthropic').complete(request)).toMatchObject({ text: '', finishReason: 'content-filter', rawFinishReason: 'refusal' });
    expect((await provider('anthropic').complete(request)).finishReason).toBe('length');
  });
  it('a spend cap is quota, fatal, not retried: 400 "reached your specified API usage limits" and 429 spend limit', async () => {
    const cap = await fails('anthropic', raw(400, { type: 'error', error: { type: 'invalid_request_error', message: 'You have reached your specified API usage limits. You will regain access on 2027-01-01 at 00:00 UTC.' } }));
    expect([cap.kind, cap.fatal, cap.retryable]).toEqual(['quota', true, false]);
    const spend = await fails('anthropic', raw(429, { type: 'error', error: { type: 'rate_limit_error', message: "This request would exceed your account's monthly spend limit." } }));
    expect(spend.kind).toBe('quota');
    const enforced = await fails('anthropic', raw(429, { type: 'error', error: { type: 'enforced_spend_limit_reached', message: 'Spend limit reached.' } }));
    expect(enforced.kind).toBe('quota');
  });
  it('529 overloaded and 409 are retryable server errors', async () => {
    expect((await fails('anthropic', raw(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))).retryable).toBe(true);
    expect((await fails('anthropic', raw(409, { type: 'error', error: { type: 'api_error', message: 'Conflict' } }))).retryable).toBe(true);
  });
  it('default max_tokens fits the model: 4096 for Claude 3, 8192 for 3.5, more for current models; thinking gets room', () => {
    expect(anthropicBody({ ...request, model: 'claude-3-haiku-20240307' }).max_tokens).toBe(4096);
    expect(anthropicBody({ ...request, model: 'claude-3-5-haiku-20241022' }).max_tokens).toBe(8192);
    expect(anthropicBody({ ...request, model: 'claude-sonnet-4-5' }).max_tokens).toBe(16_000);
    const t = anthropicBody({ ...request, model: 'claude-sonnet-4-5', reasoningEffort: 'high' });
    expect(t.thinking).toEqual({ type: 'enabled', budget_tokens: 16_384 });
    expect(t.max_tokens).toBeGreaterThan(16_384);
    expect(t).not.toHaveProperty('temperature');
  });
});

describe('Gemini generateContent', () => {
  it('thought parts are left out of the text and thoughtsTokenCount is added to output', async () => {
    fake.enqueue({ kind: 'text', thinking: '**Planning** ```python\ndef draft(): pass\n```', text: 'final', usage: { input: 30, output: 12, reasoning: 500 } });
    const c = await provider('gemini').complete(request);
    expect(c.text).toBe('final');
    expect(c.usage).toEqual({ input: 30, output: 512, reasoning: 500 });
  });
  it('finishReason SAFETY (no content) and MAX_TOKENS', async () => {
    fake.enqueue({ kind: 'refusal' }, { kind: 'text', text: 'cut', finish: 'length' });
    expect(await provider('gemini').complete(request)).toMatchObject({ text: '', finishReason: 'content-filter', rawFinishReason: 'SAFETY' });
    expect((await provider('gemini').complete(request)).finishReason).toBe('length');
  });
  it('RESOURCE_EXHAUSTED on a per-day quota is quota (fatal); per-minute is a rate limit with its retryDelay', async () => {
    const day = await fails('gemini', { kind: 'quota' });
    expect([day.kind, day.fatal]).toEqual(['quota', true]);
    const minute = await fails('gemini', { kind: 'rate-limit' });
    expect([minute.kind, minute.retryAfterMs]).toEqual(['rate-limited', 2000]);
  });
  it('thinking control per family: a level for Gemini 3, a budget for 2.5', () => {
    expect(geminiBody({ ...request, model: 'gemini-3.8-flash', reasoningEffort: 'low' }).generationConfig).toEqual({ thinkingConfig: { thinkingLevel: 'low' } });
    expect(geminiBody({ ...request, model: 'gemini-2.5-flash', reasoningEffort: 'medium' }).generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 8192 } });
    expect(geminiBody(request)).not.toHaveProperty('generationConfig');
  });
});

describe('OpenAI-compatible local servers', () => {
  it('a bare host gets /v1 (issue 15 item 6)', async () => {
    fake.enqueue({ kind: 'text', text: 'ok' });
    const p = createProvider({ kind: 'openai-compatible', baseUrl: fake.url });
    expect(p.baseUrl).toBe(`${fake.url}/v1`);
    expect((await p.complete(request)).text).toBe('ok');
    expect(fake.requests[0].path).toBe('/v1/chat/completions');
  });
  it('a 404 that is not an API error is "no chat endpoint at URL", not an unknown model', async () => {
    const e = await fails('openai-compatible', { kind: 'raw', status: 404, body: '404 page not found', headers: { 'content-type': 'text/plain' } });
    expect(e).toMatchObject({ kind: 'no-endpoint', code: 'LLM014', status: 404, fatal: true });
    expect(e.message).toContain(`${fake.url}/v1/chat/completions`);
    expect(e.message).not.toMatch(/does not know the model/);
    // A JSON 404 naming the model is still unknown-model (Ollama: model not pulled).
    expect((await fails('openai-compatible', raw(404, { error: 'model "qwen9" not found, try pulling it first' }))).kind).toBe('unknown-model');
  });
});

describe('keys go only to their own provider (issue 15 item 7)', () => {
  const env = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a', GEMINI_API_KEY: 'g' };
  it("a provider's own variable is used for its own host only", () => {
    expect(keyFromEnv('openai', undefined, env)).toBe('sk-o');
    expect(keyFromEnv('openai', 'https://api.openai.com/v1', env)).toBe('sk-o');
    expect(keyFromEnv('anthropic', undefined, env)).toBe('sk-a');
    expect(keyFromEnv('gemini', undefined, env)).toBe('g');
    expect(keyFromEnv('openai-compatible', 'http://localhost:11434/v1', env)).toBeUndefined();
    expect(keyFromEnv('openai', 'https://proxy.example/v1', env)).toBeUndefined();
  });
  it('OSVLAB_API_KEY is the explicit choice for any host', () => {
    expect(keyFromEnv('openai-compatible', 'http://localhost:11434/v1', { ...env, OSVLAB_API_KEY: 'mine' })).toBe('mine');
  });
});
