/**
 * Anthropic Messages (POST {base}/messages). Browsers may call it directly
 * only with the `anthropic-dangerous-direct-browser-access` header.
 */
import { malformedError, missingKeyError } from './errors.ts';
import { type HttpDeps, postJson } from './http.ts';
import { num, obj, str } from './read.ts';
import type { Completion, CompletionRequest, FinishReason, Provider, ProviderConfig } from './types.ts';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';
export const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic requires max_tokens; this is the default when a run sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/** The JSON body of a Messages request: system messages go to the top-level `system`. */
export function anthropicBody(r: CompletionRequest): Record<string, unknown> {
  const system = r.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const body: Record<string, unknown> = {
    model: r.model,
    max_tokens: r.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: r.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content })),
  };
  if (system.length > 0) body.system = system.join('\n\n');
  if (r.temperature !== undefined) body.temperature = r.temperature;
  if (r.topP !== undefined) body.top_p = r.topP;
  if (r.stop !== undefined && r.stop.length > 0) body.stop_sequences = [...r.stop];
  return body;
}

function finish(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** Reads a Messages response body: the text blocks joined. */
export function readAnthropic(json: unknown, requestedModel: string): Omit<Completion, 'latencyMs'> {
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
  return {
    text,
    model: str(body?.model) ?? requestedModel,
    usage: { input: num(usage?.input_tokens) ?? 0, output: num(usage?.output_tokens) ?? 0 },
    finishReason: finish(rawFinish),
    ...(rawFinish !== undefined ? { rawFinishReason: rawFinish } : {}),
    raw: json,
  };
}

export function createAnthropic(config: ProviderConfig, deps: HttpDeps = {}): Provider {
  const baseUrl = (config.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '');
  return {
    kind: 'anthropic',
    baseUrl,
    async complete(request, options = {}) {
      if (!config.apiKey) throw missingKeyError('anthropic');
      const reply = await postJson(
        {
          provider: 'anthropic',
          baseUrl,
          url: `${baseUrl}/messages`,
          headers: {
            'x-api-key': config.apiKey,
            'anthropic-version': ANTHROPIC_VERSION,
            'anthropic-dangerous-direct-browser-access': 'true',
          },
          body: anthropicBody(request),
          model: request.model,
          timeoutMs: config.timeoutMs ?? 600_000,
          signal: options.signal,
          secrets: [config.apiKey],
          // 529 "overloaded_error" is Anthropic's busy signal: a server error, retried.
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
