/**
 * Anthropic Messages (POST {base}/messages). Browsers may call it directly
 * only with the `anthropic-dangerous-direct-browser-access` header.
 */
import { endpointUrl, trimBaseUrl } from './base-url.ts';
import { malformedError, missingKeyError } from './errors.ts';
import { type HttpDeps, postJson } from './http.ts';
import { obj, str } from './read.ts';
import { type ChatMessage, type Completion, type ToolCall, DEFAULT_REQUEST_TIMEOUT_MS, type CompletionRequest, type FinishReason, type Provider, type ProviderConfig, type ReasoningEffort, effortEntry } from './types.ts';
import { usageFrom } from './usage.ts';

const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';
const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic requires max_tokens; this is the default for current models when a run sets none. */
const ANTHROPIC_DEFAULT_MAX_TOKENS = 16_000;

/** Extended-thinking budget per effort (budget_tokens must be at least 1024 and below max_tokens). */
const THINKING_BUDGET: Readonly<Record<ReasoningEffort, number>> = { minimal: 1024, low: 2048, medium: 8192, high: 16_384 };

/**
 * The max_tokens sent when the run sets none. It must fit the model's output
 * limit (Claude 3 models: 4096; Claude 3.5: 8192), and on current models it is
 * shared with thinking, so it is larger there. With a thinking budget it
 * leaves room for the answer after the thinking.
 */
function anthropicDefaultMaxTokens(model: string, thinkingBudget?: number): number {
  const id = model.toLowerCase();
  const base = /^claude-3-5-/.test(id) ? 8192 : /^claude-3-(opus|sonnet|haiku)/.test(id) || /^claude-(2|instant)/.test(id) ? 4096 : ANTHROPIC_DEFAULT_MAX_TOKENS;
  return thinkingBudget !== undefined ? Math.max(base, thinkingBudget + 8192) : base;
}

/** The JSON body of a Messages request: system messages go to the top-level `system`. */
export function anthropicBody(r: CompletionRequest): Record<string, unknown> {
  const system = r.messages.filter((m) => m.role === 'system').map((m) => m.content);
  let budget = r.reasoningEffort !== undefined ? effortEntry(THINKING_BUDGET, r.reasoningEffort) : undefined;
  if (budget !== undefined && r.maxTokens !== undefined && r.maxTokens <= budget) budget = Math.max(1024, Math.floor(r.maxTokens / 2));
  const body: Record<string, unknown> = {
    model: r.model,
    max_tokens: r.maxTokens ?? anthropicDefaultMaxTokens(r.model, budget),
    messages: anthropicMessages(r.messages),
  };
  if (r.tools && r.tools.length > 0) body.tools = r.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  if (system.length > 0) body.system = system.join('\n\n');
  if (r.temperature !== undefined) body.temperature = r.temperature;
  if (r.topP !== undefined) body.top_p = r.topP;
  if (r.stop !== undefined && r.stop.length > 0) body.stop_sequences = [...r.stop];
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  return body;
}

/**
 * The conversation on the wire. Plain turns stay `{role, content: text}`, as
 * before tools existed. An assistant turn with tool calls goes back as the
 * content blocks it came in (`replay`: thinking and redacted_thinking blocks
 * with their signatures, text, tool_use), or, without them, as text and
 * tool_use blocks. Tool messages become tool_result blocks of one user
 * message, with any user text that follows them.
 */
function anthropicMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  const out: { role: string; content: string | Record<string, unknown>[] }[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      const block = { type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content };
      const last = out[out.length - 1];
      if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(block);
      else out.push({ role: 'user', content: [block] });
      continue;
    }
    if (m.role === 'assistant' && m.replay?.kind === 'anthropic' && Array.isArray(m.replay.data)) {
      out.push({ role: 'assistant', content: m.replay.data as Record<string, unknown>[] });
      continue;
    }
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      const blocks: Record<string, unknown>[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: argumentsObject(c.arguments) });
      out.push({ role: 'assistant', content: blocks });
      continue;
    }
    const last = out[out.length - 1];
    // User text after tool results joins their message (the roles must alternate).
    if (m.role === 'user' && last?.role === 'user' && Array.isArray(last.content)) last.content.push({ type: 'text', text: m.content });
    else out.push({ role: m.role, content: m.content });
  }
  return out;
}

/** A call's arguments as the object tool_use.input must be; text that is no JSON object goes as {} (the call was answered with an error). */
function argumentsObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function finish(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    // The model stopped to have its tools called.
    case 'tool_use':
      return 'stop';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * Reads a Messages response body: the text blocks joined; `thinking` and
 * `redacted_thinking` blocks are left out (their tokens are in output_tokens).
 */
function readAnthropic(json: unknown, requestedModel: string): Omit<Completion, 'latencyMs'> {
  const body = obj(json);
  const content = body?.content;
  if (!Array.isArray(content)) throw new Error('no content array');
  const text = content
    .map((b) => obj(b))
    .filter((b) => b?.type === 'text')
    .map((b) => str(b?.text) ?? '')
    .join('');
  const usage = obj(body?.usage);
  const rawFinish = str(body?.stop_reason);
  const toolCalls: ToolCall[] = [];
  content.forEach((b, i) => {
    const block = obj(b);
    if (block?.type !== 'tool_use') return;
    const name = str(block.name);
    if (name === undefined) throw new Error(`content[${i}] (tool_use) has no name`);
    toolCalls.push({ id: str(block.id) ?? `toolu_${i}`, name, arguments: JSON.stringify(block.input ?? {}) });
  });
  return {
    text,
    model: str(body?.model) ?? requestedModel,
    usage: usageFrom({ input: usage?.input_tokens, output: [usage?.output_tokens] }),
    finishReason: finish(rawFinish),
    ...(rawFinish !== undefined ? { rawFinishReason: rawFinish } : {}),
    // The turn goes back block for block (signatures included) when the conversation continues after its calls.
    ...(toolCalls.length > 0 ? { toolCalls, replay: { kind: 'anthropic' as const, data: content } } : {}),
    raw: json,
  };
}

export function createAnthropic(config: ProviderConfig, deps: HttpDeps = {}): Provider {
  const baseUrl = trimBaseUrl(config.baseUrl ?? ANTHROPIC_BASE_URL);
  return {
    kind: 'anthropic',
    baseUrl,
    async complete(request, options = {}) {
      if (!config.apiKey) throw missingKeyError('anthropic');
      const reply = await postJson(
        {
          provider: 'anthropic',
          baseUrl,
          url: endpointUrl(baseUrl, '/messages'),
          headers: {
            'x-api-key': config.apiKey,
            'anthropic-version': ANTHROPIC_VERSION,
            'anthropic-dangerous-direct-browser-access': 'true',
          },
          body: anthropicBody(request),
          model: request.model,
          timeoutMs: config.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
          signal: options.signal,
          secrets: [config.apiKey],
          // 529 "overloaded_error" is Anthropic's busy signal: a server error, retried.
          // A spend cap is a 400 "reached your specified API usage limits" or a 429 naming the
          // spend limit: quota, fatal for the run (the generic rules know both phrasings).
          classify: (info) => (info.status === 529 ? 'server' : undefined),
        },
        deps,
      );
      try {
        return { ...readAnthropic(reply.json, request.model), latencyMs: reply.latencyMs };
      } catch (e) {
        throw malformedError((e as Error).message, { provider: 'anthropic' });
      }
    },
  };
}
