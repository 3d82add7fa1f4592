/**
 * OpenAI chat completions (POST {base}/chat/completions), also spoken by
 * OpenRouter, DeepSeek, vLLM, Ollama and LM Studio under their own base URLs.
 */
import { endpointUrl, withApiPath } from './base-url.ts';
import { missingKeyError, malformedError } from './errors.ts';
import { type HttpDeps, postJson } from './http.ts';
import { obj, str } from './read.ts';
import { type Completion, DEFAULT_REQUEST_TIMEOUT_MS, type CompletionRequest, type FinishReason, type Provider, type ProviderConfig, type ReasoningEffort, effortEntry } from './types.ts';
import { usageFrom } from './usage.ts';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI's words for the efforts are ours. */
const EFFORT_WORDS: Readonly<Record<ReasoningEffort, string>> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high' };

/** The JSON body of a chat completion request. */
export function openAiBody(r: CompletionRequest, compatible: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: r.model,
    messages: r.messages.map((m) => ({ role: m.role, content: m.content })),
  };
  if (r.temperature !== undefined) body.temperature = r.temperature;
  if (r.topP !== undefined) body.top_p = r.topP;
  // OpenAI's newer models take only max_completion_tokens; other servers know max_tokens.
  if (r.maxTokens !== undefined) body[compatible ? 'max_tokens' : 'max_completion_tokens'] = r.maxTokens;
  if (r.seed !== undefined) body.seed = r.seed;
  if (r.stop !== undefined && r.stop.length > 0) body.stop = [...r.stop];
  if (r.reasoningEffort !== undefined) body.reasoning_effort = effortEntry(EFFORT_WORDS, r.reasoningEffort);
  return body;
}

function finish(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
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
  return {
    text: content ?? '',
    model: str(obj(json)?.model) ?? requestedModel,
    // Reasoning tokens are already inside completion_tokens (they are billed as output).
    usage: usageFrom({ input: usage?.prompt_tokens, output: [usage?.completion_tokens], reasoning: obj(usage?.completion_tokens_details)?.reasoning_tokens }),
    finishReason: refused ? 'content-filter' : finish(rawFinish),
    ...(rawFinish !== undefined ? { rawFinishReason: rawFinish } : {}),
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
