/**
 * A provider's odd token counts never cost the answer (src/core/llm/usage.ts):
 * over real HTTP to the fake provider, each wire format with counts that are
 * negative, fractional, text, null, huge or missing gives the answer with its
 * usage marked unknown (and an unknown cost); sound counts are read as they
 * are. A response-cache entry with a bad count is checked the same way, and
 * a whole `osvlab run` against such a provider stores attempts that
 * `osvlab report` reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryResponseCache, cacheKey } from '../../src/core/llm/cache.ts';
import { LlmClient } from '../../src/core/llm/client.ts';
import { costOf } from '../../src/core/llm/prices.ts';
import { createProvider } from '../../src/core/llm/provider.ts';
import type { CompletionRequest, ProviderKind } from '../../src/core/llm/types.ts';
import { startCli } from '../cli-process.ts';
import { proseAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';

let fake: FakeProvider;
const dirs: string[] = [];
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const request: CompletionRequest = { model: 'm-1', messages: [{ role: 'user', content: 'Specify sys_dup.' }] };

/** A success body of `wire` whose usage is `input`/`output` as given (undefined: the field is left out; null: no usage at all). */
function body(kind: ProviderKind, input: unknown, output: unknown, none = false): string {
  const pair = (a: string, b: string) => JSON.parse(JSON.stringify({ [a]: input, [b]: output }));
  switch (kind) {
    case 'openai':
    case 'openai-compatible':
      return JSON.stringify({ model: 'm-1', choices: [{ message: { role: 'assistant', content: 'answer' }, finish_reason: 'stop' }], ...(none ? {} : { usage: pair('prompt_tokens', 'completion_tokens') }) });
    case 'anthropic':
      return JSON.stringify({ model: 'm-1', content: [{ type: 'text', text: 'answer' }], stop_reason: 'end_turn', ...(none ? {} : { usage: pair('input_tokens', 'output_tokens') }) });
    case 'gemini':
      return JSON.stringify({ modelVersion: 'm-1', candidates: [{ content: { role: 'model', parts: [{ text: 'answer' }] }, finishReason: 'STOP' }], ...(none ? {} : { usageMetadata: pair('promptTokenCount', 'candidatesTokenCount') }) });
  }
}

const provider = (kind: ProviderKind) => createProvider({ kind, baseUrl: `${fake.url}/v1`, apiKey: 'k', timeoutMs: 5000 });

describe('token counts from a provider', () => {
  it('keeps every answer; a count that is not a whole number >= 0 makes the usage unknown', async () => {
    const odd: unknown[] = [-5, 3.5, '12', null, 1e300, -0.5, true, [], {}];
    for (const kind of ['openai', 'anthropic', 'gemini'] as const) {
      for (const bad of odd) {
        fake.enqueue({ kind: 'raw', status: 200, body: body(kind, bad, 7) });
        const c = await provider(kind).complete(request);
        expect(c.text, `${kind} ${JSON.stringify(bad)}`).toBe('answer');
        expect(c.usage, `${kind} ${JSON.stringify(bad)}`).toEqual({ input: 0, output: 7, unknown: true });
        expect(costOf(c.usage, { input: 1, output: 1 })).toBeNull();
        expect(costOf(c.usage, { input: 0, output: 0 })).toBe(0);
      }
      fake.enqueue({ kind: 'raw', status: 200, body: body(kind, 11, -1) });
      expect((await provider(kind).complete(request)).usage).toEqual({ input: 11, output: 0, unknown: true });
      fake.enqueue({ kind: 'raw', status: 200, body: body(kind, 0, 0, true) });
      expect((await provider(kind).complete(request)).usage, `${kind}: no usage at all`).toMatchObject({ unknown: true });
      fake.enqueue({ kind: 'raw', status: 200, body: body(kind, 11, 3) });
      expect((await provider(kind).complete(request)).usage).toEqual({ input: 11, output: 3 });
    }
    // Gemini's JSON leaves out a count of 0: a missing field is 0, not unknown.
    fake.enqueue({ kind: 'raw', status: 200, body: body('gemini', 11, undefined) });
    expect((await provider('gemini').complete(request)).usage).toEqual({ input: 11, output: 0 });
  });

  it('checks a response-cache entry as a fresh answer is', async () => {
    const cache = new MemoryResponseCache();
    const p = provider('openai');
    const key = await cacheKey(p.kind, p.baseUrl, request);
    await cache.putCached({ key, createdAt: 0, completion: { text: 'old', model: 'm-1', usage: { input: -5, output: 2 }, finishReason: 'stop', latencyMs: 1 } });
    const r = await new LlmClient({ provider: p, cache }).complete(request);
    expect(r).toMatchObject({ cached: true, completion: { text: 'old', usage: { input: 0, output: 2, unknown: true } } });
  });
});

describe('osvlab run against a provider with a negative count', () => {
  it('stores the answers where report reads them, not only where run counted them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'osvlab-usage-'));
    dirs.push(dir);
    fake.reset();
    fake.respond(() => ({ kind: 'text', text: proseAnswer(), usage: { input: -5, output: 10 } }));
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.OSVLAB_API_KEY;
    const tasks = 'sys_dup-v0,sys_dup-v1';
    const run = await startCli(['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'odd-usage', '--tasks', tasks,
      '--shots', '0', '--out', dir, '--json', '--no-lemmas'], env).result;
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out).attempts).toHaveLength(2);
    const report = await startCli(['report', dir, '--json'], env).result;
    expect(report.code, report.err).toBe(0);
    expect(report.err).not.toMatch(/usage\.input/);
    const r = JSON.parse(report.out);
    expect(r.skipped).toEqual([]);
    expect(r.partial).toBe(false);
    expect(r.attempts.map((a: { category: string }) => a.category)).toEqual(['syntax', 'syntax']);
  }, 240_000);
});
