// Tool calling in each provider's wire format, over real HTTP to the fake provider:
// the tools offered, the calls read back (several in a turn, arguments that are no JSON),
// the turn sent back with its results (Anthropic's signed thinking blocks, Gemini's thought
// signatures unchanged), and a model that refuses tools.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/core/llm/cache.ts';
import { LlmError } from '../../src/core/llm/errors.ts';
import { createProvider } from '../../src/core/llm/provider.ts';
import type { ChatMessage, Completion, CompletionRequest, ProviderKind, ToolSpec } from '../../src/core/llm/types.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';

const KEY = 'sk-test-TOOLS-1234567890';
const VERIFY: ToolSpec = {
  name: 'verify',
  description: 'Verify a spec.',
  parameters: { type: 'object', properties: { spec: { type: 'string' } }, required: ['spec'] },
};
const first: CompletionRequest = {
  model: 'm-tools',
  messages: [
    { role: 'system', content: 'You write hv6 specs.' },
    { role: 'user', content: 'Specify sys_dup.' },
  ],
  tools: [VERIFY],
};

// A fresh server per test: its reply ids (and so call ids and signatures) start at 1.
let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(() => fake.close());

const provider = (kind: ProviderKind) => createProvider({ kind, baseUrl: `${fake.url}/v1`, apiKey: KEY, timeoutMs: 5000 });

/** The conversation after `turn`: the assistant's calls and one result per call. */
function continued(turn: Completion): CompletionRequest {
  const results: ChatMessage[] = (turn.toolCalls ?? []).map((c, i) => ({ role: 'tool', content: `result ${i}`, toolCallId: c.id, toolName: c.name }));
  const assistant: ChatMessage = { role: 'assistant', content: turn.text, toolCalls: turn.toolCalls, ...(turn.replay ? { replay: turn.replay } : {}) };
  return { ...first, messages: [...first.messages, assistant, ...results] };
}

const TWO_CALLS = { kind: 'tools', calls: [{ name: 'verify', arguments: { spec: 'def a(): pass' } }, { name: 'verify', arguments: '{"spec": "def b(' }], text: 'Checking.' } as const;

describe('OpenAI chat completions', () => {
  it('offers tools, reads several calls with their raw arguments, and sends role "tool" results by tool_call_id', async () => {
    fake.enqueue(TWO_CALLS);
    const turn = await provider('openai').complete(first);
    expect(fake.requests[0].body.tools).toEqual([{ type: 'function', function: { name: 'verify', description: 'Verify a spec.', parameters: VERIFY.parameters } }]);
    expect(turn.toolCalls).toEqual([
      { id: 'call_1_0', name: 'verify', arguments: '{"spec":"def a(): pass"}' },
      // Not JSON: kept as the model sent it, for the tool to answer with an error.
      { id: 'call_1_1', name: 'verify', arguments: '{"spec": "def b(' },
    ]);
    expect(turn).toMatchObject({ text: 'Checking.', finishReason: 'stop', rawFinishReason: 'tool_calls' });
    fake.enqueue({ kind: 'text', text: 'done' });
    await provider('openai').complete(continued(turn));
    expect(fake.requests[1].body.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Checking.', tool_calls: [
        { id: 'call_1_0', type: 'function', function: { name: 'verify', arguments: '{"spec":"def a(): pass"}' } },
        { id: 'call_1_1', type: 'function', function: { name: 'verify', arguments: '{"spec": "def b(' } },
      ] },
      { role: 'tool', tool_call_id: 'call_1_0', content: 'result 0' },
      { role: 'tool', tool_call_id: 'call_1_1', content: 'result 1' },
    ]);
  });

  it('speaks the same format to an openai-compatible server', async () => {
    fake.enqueue({ kind: 'tools', calls: [{ name: 'verify', arguments: { spec: 'x' } }] });
    const turn = await provider('openai-compatible').complete(first);
    expect(turn.toolCalls).toEqual([{ id: 'call_1_0', name: 'verify', arguments: '{"spec":"x"}' }]);
    expect(fake.requests[0].body.tools[0].type).toBe('function');
  });
});

describe('Anthropic messages', () => {
  it('offers tools, reads tool_use blocks, and sends thinking and redacted_thinking back unchanged with tool_result blocks', async () => {
    fake.enqueue({ ...TWO_CALLS, thinking: 'I should check both.' });
    const turn = await provider('anthropic').complete({ ...first, reasoningEffort: 'low' });
    expect(fake.requests[0].body.tools).toEqual([{ name: 'verify', description: 'Verify a spec.', input_schema: VERIFY.parameters }]);
    expect(turn.toolCalls).toEqual([
      { id: 'toolu_1_0', name: 'verify', arguments: '{"spec":"def a(): pass"}' },
      // Anthropic's input is an object: text that does not parse arrives as a JSON string.
      { id: 'toolu_1_1', name: 'verify', arguments: '"{\\"spec\\": \\"def b("' },
    ]);
    expect(turn.rawFinishReason).toBe('tool_use');
    fake.enqueue({ kind: 'text', text: 'done' });
    await provider('anthropic').complete({ ...continued(turn), reasoningEffort: 'low' });
    const [, assistant, results] = fake.requests[1].body.messages;
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should check both.', signature: 'sig1' },
        { type: 'redacted_thinking', data: 'redacted1' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1_0', name: 'verify', input: { spec: 'def a(): pass' } },
        { type: 'tool_use', id: 'toolu_1_1', name: 'verify', input: '{"spec": "def b(' },
      ],
    });
    expect(results).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1_0', content: 'result 0' },
        { type: 'tool_result', tool_use_id: 'toolu_1_1', content: 'result 1' },
      ],
    });
    expect(fake.requests[1].body.messages).toHaveLength(3);
  });
});

describe('Gemini generateContent', () => {
  it('offers functionDeclarations, reads functionCall parts, and returns the parts with their thought signatures', async () => {
    fake.enqueue({ ...TWO_CALLS, thinking: 'thoughts' });
    const turn = await provider('gemini').complete(first);
    expect(fake.requests[0].body.tools).toEqual([{ functionDeclarations: [{ name: 'verify', description: 'Verify a spec.', parameters: VERIFY.parameters }] }]);
    expect(turn.toolCalls?.map((c) => c.name)).toEqual(['verify', 'verify']);
    expect(turn.toolCalls?.[0].arguments).toBe('{"spec":"def a(): pass"}');
    fake.enqueue({ kind: 'text', text: 'done' });
    await provider('gemini').complete(continued(turn));
    const contents = fake.requests[1].body.contents;
    expect(contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'thoughts', thought: true },
        { text: 'Checking.' },
        { functionCall: { name: 'verify', args: { spec: 'def a(): pass' } }, thoughtSignature: 'ts1_0' },
        { functionCall: { name: 'verify', args: '{"spec": "def b(' }, thoughtSignature: 'ts1_1' },
      ],
    });
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'verify', response: { result: 'result 0' } } },
        { functionResponse: { name: 'verify', response: { result: 'result 1' } } },
      ],
    });
  });
});

describe('a model that takes no tools', () => {
  for (const kind of ['openai', 'openai-compatible', 'anthropic', 'gemini'] as const) {
    it(`${kind}: one fatal LLM018 naming the provider and the model`, async () => {
      fake.enqueue({ kind: 'no-tools' });
      const e = (await provider(kind).complete(first).catch((x: unknown) => x)) as LlmError;
      expect(e).toBeInstanceOf(LlmError);
      expect(e.code).toBe('LLM018');
      expect(e.fatal).toBe(true);
      expect(e.retryable).toBe(false);
      expect(e.message).toContain('"m-tools"');
      expect(e.message).toMatch(kind === 'anthropic' ? /^Anthropic/ : kind === 'gemini' ? /^Google Gemini/ : kind === 'openai' ? /^OpenAI/ : /^The server/);
    });
  }
});

describe('the response cache key', () => {
  it('keeps a plain request\'s key and keys a tool turn by its calls and results', async () => {
    const plain = { model: 'm', messages: first.messages };
    // The key of a request without tools is the one stored before tools existed.
    expect(await cacheKey('openai', 'http://x/v1', plain)).toBe(await cacheKey('openai', 'http://x/v1', { ...plain, tools: [] }));
    const a = await cacheKey('openai', 'http://x/v1', { ...plain, tools: [VERIFY] });
    expect(a).not.toBe(await cacheKey('openai', 'http://x/v1', plain));
    const withCall = (args: string): CompletionRequest => ({
      ...plain,
      tools: [VERIFY],
      messages: [...plain.messages, { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'verify', arguments: args }] }, { role: 'tool', content: 'ok', toolCallId: 'c' }],
    });
    expect(await cacheKey('openai', 'http://x/v1', withCall('{"spec":"a"}'))).not.toBe(await cacheKey('openai', 'http://x/v1', withCall('{"spec":"b"}')));
  });
});
