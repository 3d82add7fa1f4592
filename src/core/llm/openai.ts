/**
 * OpenAI chat completions (POST {base}/chat/completions), also spoken by
 * OpenRouter, DeepSeek, vLLM, Ollama and LM Studio under their own base URLs.
 */
import { endpointUrl, withApiPath } from './base-url.ts';
import { missingKeyError, malformedError } from './errors.ts';
import { type HttpDeps, postJson } from './http.ts';
import { obj, str } from './read.ts';
import { type ChatMessage, type Completion, type ToolCall, DEFAULT_REQUEST_TIMEOUT_MS, type CompletionRequest, type FinishReason, type Provider, type ProviderConfig, type ReasoningEffort, effortEntry } from './types.ts';
import { usageFrom } from './usage.ts';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI's words for the efforts are ours. */
const EFFORT_WORDS: Readonly<Record<ReasoningEffort, string>> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high' };

/** The JSON body of a chat completion request. */
export function openAiBody(r: CompletionRequest, compatible: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: r.model,
    messages: r.messages.map(openAiMessage),
  };
  if (r.tools && r.tools.length > 0) body.tools = r.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  if (r.temperature !== undefined) body.temperature = r.temperature;
  if (r.topP !== undefined) body.top_p = r.topP;
  // OpenAI's newer models take only max_completion_tokens; other servers know max_tokens.
  if (r.maxTokens !== undefined) body[compatible ? 'max_tokens' : 'max_completion_tokens'] = r.maxTokens;
  if (r.seed !== undefined) body.seed = r.seed;
  if (r.stop !== undefined && r.stop.length > 0) body.stop = [...r.stop];
  if (r.reasoningEffort !== undefined) body.reasoning_effort = effortEntry(EFFORT_WORDS, r.reasoningEffort);
  return body;
}

/** One message on the wire: an assistant turn carries its tool_calls, a tool message the id it answers. */
function openAiMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
  if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
    return {
      role: 'assistant',
      // A turn of calls alone has content null, as OpenAI sends it.
      content: m.content === '' ? null : m.content,
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return { role: m.role, content: m.content };
}

/** The tool calls of a response message; arguments stay the text the model sent, JSON or not. */
function readToolCalls(raw: unknown): ToolCall[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new Error('message.tool_calls is not an array');
  const calls = raw.map((c, i): ToolCall => {
    const fn = obj(obj(c)?.function);
    const name = str(fn?.name);
    if (name === undefined) throw new Error(`tool_calls[${i}] has no function name`);
    const args = fn?.arguments;
    return { id: str(obj(c)?.id) ?? `call_${i}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
  });
  return calls.length > 0 ? calls : undefined;
}

function finish(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    // The model stopped to have its tools called.
    case 'tool_calls':
    case 'function_call':
      return 'stop';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** Reads a chat completion response body. */
function readOpenAi(json: unknown, requestedModel: string): Omit<Completion, 'latencyMs'> {
  const choices = obj(json)?.choices;
  const first = Array.isArray(choices) ? obj(choices[0]) : undefined;
  const message = obj(first?.message);
  if (!message) throw new Error('no choices[0].message');
  const content = message.content;
  if (content !== null && content !== undefined && typeof content !== 'string') throw new Error('message.content is not text');
  const usage = obj(obj(json)?.usage);
  // A refusal comes as message.refusal with no content.
  const refused = typeof message.refusal === 'string' && message.refusal !== '' && !content;
  const rawFinish = refused ? 'refusal' : str(first?.finish_reason);
  const toolCalls = readToolCalls(message.tool_calls);
  return {
    text: content ?? '',
    model: str(obj(json)?.model) ?? requestedModel,
    // Reasoning tokens are already inside completion_tokens (they are billed as output).
    usage: usageFrom({ input: usage?.prompt_tokens, output: [usage?.completion_tokens], reasoning: obj(usage?.completion_tokens_details)?.reasoning_tokens }),
    finishReason: refused ? 'content-filter' : finish(rawFinish),
    ...(rawFinish !== undefined ? { rawFinishReason: rawFinish } : {}),
    ...(toolCalls ? { toolCalls } : {}),
    raw: json,
  };
}

export function createOpenAi(config: ProviderConfig, deps: HttpDeps = {}): Provider {
  const compatible = config.kind === 'openai-compatible';
  const baseUrl = withApiPath(config.baseUrl ?? OPENAI_BASE_URL);
  const kind = config.kind;
  return {
    kind,
    baseUrl,
    async complete(request, options = {}) {
      // OpenAI-compatible servers may need no key (Ollama, LM Studio, vLLM); OpenAI always does.
      if (!config.apiKey && kind === 'openai') throw missingKeyError(kind);
      const headers: Record<string, string> = {};
      if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
      const reply = await postJson(
        {
          provider: kind,
          baseUrl,
          url: endpointUrl(baseUrl, '/chat/completions'),
          headers,
          body: openAiBody(request, compatible),
          model: request.model,
          timeoutMs: config.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
          signal: options.signal,
          secrets: [config.apiKey],
        },
        deps,
      );
      try {
        return { ...readOpenAi(reply.json, request.model), latencyMs: reply.latencyMs };
      } catch (e) {
        throw malformedError((e as Error).message, { provider: kind });
      }
    },
  };
}
