/**
 * Google Gemini generateContent (POST {base}/models/{model}:generateContent).
 * The key goes in the x-goog-api-key header, never in the URL.
 */
import { endpointUrl, trimBaseUrl } from './base-url.ts';
import { malformedError, missingKeyError } from './errors.ts';
import { type ErrorInfo, type HttpDeps, postJson } from './http.ts';
import { obj, str } from './read.ts';
import { type ChatMessage, type Completion, type ToolCall, DEFAULT_REQUEST_TIMEOUT_MS, type CompletionRequest, type FinishReason, type Provider, type ProviderConfig, type ReasoningEffort, type Usage, effortEntry } from './types.ts';
import type { LlmErrorKind } from './errors.ts';
import { usageFrom } from './usage.ts';

const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** The JSON body: system text to systemInstruction, assistant turns as role "model". */
export function geminiBody(r: CompletionRequest): Record<string, unknown> {
  const system = r.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const body: Record<string, unknown> = {
    contents: geminiContents(r.messages),
  };
  if (r.tools && r.tools.length > 0) body.tools = [{ functionDeclarations: r.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) }];
  if (system.length > 0) body.systemInstruction = { parts: [{ text: system.join('\n\n') }] };
  const gen: Record<string, unknown> = {};
  if (r.temperature !== undefined) gen.temperature = r.temperature;
  if (r.topP !== undefined) gen.topP = r.topP;
  if (r.maxTokens !== undefined) gen.maxOutputTokens = r.maxTokens;
  if (r.seed !== undefined) gen.seed = r.seed;
  if (r.stop !== undefined && r.stop.length > 0) gen.stopSequences = [...r.stop];
  if (r.reasoningEffort !== undefined) gen.thinkingConfig = thinkingConfig(r.model, r.reasoningEffort);
  if (Object.keys(gen).length > 0) body.generationConfig = gen;
  return body;
}

/**
 * The conversation on the wire. A model turn with calls goes back as the
 * parts it came in (`replay`: each functionCall with its thoughtSignature,
 * which Gemini 3 requires), or else as text and functionCall parts; tool
 * messages become functionResponse parts of one user turn.
 */
function geminiContents(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  const out: { role: string; parts: Record<string, unknown>[] }[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      const part = { functionResponse: { name: m.toolName ?? '', response: { result: m.content } } };
      const last = out[out.length - 1];
      if (last?.role === 'user' && last.parts.every((p) => 'functionResponse' in p)) last.parts.push(part);
      else out.push({ role: 'user', parts: [part] });
      continue;
    }
    if (m.role === 'assistant' && m.replay?.kind === 'gemini' && Array.isArray(m.replay.data)) {
      out.push({ role: 'model', parts: m.replay.data as Record<string, unknown>[] });
      continue;
    }
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      const parts: Record<string, unknown>[] = m.content ? [{ text: m.content }] : [];
      for (const c of m.toolCalls) parts.push({ functionCall: { name: c.name, args: argsObject(c.arguments) } });
      out.push({ role: 'model', parts });
      continue;
    }
    out.push({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] });
  }
  return out;
}

function argsObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const THINKING_BUDGET: Readonly<Record<ReasoningEffort, number>> = { minimal: 128, low: 1024, medium: 8192, high: 24_576 };

/** Gemini 3 and later take a thinking level; Gemini 2.5 a token budget (the two cannot be mixed). */
function thinkingConfig(model: string, effort: ReasoningEffort): Record<string, unknown> {
  const budget = effortEntry(THINKING_BUDGET, effort);
  const m = /gemini-(\d+)/.exec(model);
  if (m && Number(m[1]) >= 3) return { thinkingLevel: effort };
  return { thinkingBudget: budget };
}

function finish(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'STOP':
      return 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** Reads a generateContent response: the first candidate's text parts joined, thought summaries (`thought: true`) left out. */
function readGemini(json: unknown, requestedModel: string): Omit<Completion, 'latencyMs'> {
  const body = obj(json);
  const candidates = body?.candidates;
  if (!Array.isArray(candidates) || candidates.length === 0) {
    const blocked = str(obj(body?.promptFeedback)?.blockReason);
    if (blocked) return { text: '', model: str(body?.modelVersion) ?? requestedModel, usage: usageOf(body), finishReason: 'content-filter', rawFinishReason: blocked, raw: json };
    throw new Error('no candidates');
  }
  const first = obj(candidates[0]);
  const parts = obj(first?.content)?.parts;
  const text = Array.isArray(parts) ? parts.filter((p) => obj(p)?.thought !== true).map((p) => str(obj(p)?.text) ?? '').join('') : '';
  const rawFinish = str(first?.finishReason);
  const toolCalls: ToolCall[] = [];
  if (Array.isArray(parts)) {
    parts.forEach((p, i) => {
      const call = obj(obj(p)?.functionCall);
      if (!call) return;
      const name = str(call.name);
      if (name === undefined) throw new Error(`parts[${i}].functionCall has no name`);
      // Gemini 2.x gives no id; the turn and position make one.
      toolCalls.push({ id: str(call.id) ?? `call_${toolCalls.length}`, name, arguments: JSON.stringify(call.args ?? {}) });
    });
  }
  return {
    text,
    model: str(body?.modelVersion) ?? requestedModel,
    usage: usageOf(body),
    finishReason: finish(rawFinish),
    ...(rawFinish !== undefined ? { rawFinishReason: rawFinish } : {}),
    // The parts go back unchanged, thought signatures included.
    ...(toolCalls.length > 0 ? { toolCalls, replay: { kind: 'gemini' as const, data: parts } } : {}),
    raw: json,
  };
}

/**
 * Thinking tokens (thoughtsTokenCount) are billed as output but not inside
 * candidatesTokenCount: added. The API's JSON leaves out a count that is 0,
 * so a missing field is 0; a missing usageMetadata is an unknown usage.
 */
function usageOf(body: Record<string, unknown> | undefined): Usage {
  const u = obj(body?.usageMetadata);
  if (!u) return usageFrom({ input: undefined, output: [undefined] });
  const zeroIfLeftOut = (v: unknown) => (v === undefined ? 0 : v);
  return usageFrom({ input: zeroIfLeftOut(u.promptTokenCount), output: [zeroIfLeftOut(u.candidatesTokenCount), zeroIfLeftOut(u.thoughtsTokenCount)], reasoning: u.thoughtsTokenCount });
}

/**
 * Gemini answers a bad key with 400 API_KEY_INVALID, and every quota breach
 * with 429 RESOURCE_EXHAUSTED ("exceeded your current quota ... billing").
 * A per-minute quota is a wait (rate limited); a per-day one will not lift
 * within a run, so it counts as quota exhausted.
 */
function classify(info: ErrorInfo): LlmErrorKind | undefined {
  if (info.codes.includes('api_key_invalid') || /api key not valid/i.test(info.message)) return 'auth';
  if (info.status === 429) return quotaIds(info).some((q) => /PerDay/i.test(q)) ? 'quota' : 'rate-limited';
  return undefined;
}

function quotaIds(info: ErrorInfo): string[] {
  const details = obj(obj(info.body)?.error)?.details;
  if (!Array.isArray(details)) return [];
  const ids: string[] = [];
  for (const d of details) {
    const violations = obj(d)?.violations;
    if (Array.isArray(violations)) for (const v of violations) {
      const id = str(obj(v)?.quotaId);
      if (id) ids.push(id);
    }
  }
  return ids;
}

/** Gemini puts its retry hint in error.details[].retryDelay ("37s"). */
function retryDelay(info: ErrorInfo): number | undefined {
  const details = obj(obj(info.body)?.error)?.details;
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    const delay = str(obj(d)?.retryDelay);
    const m = delay && /^(\d+(?:\.\d+)?)s$/.exec(delay);
    if (m) return Math.round(Number(m[1]) * 1000);
  }
  return undefined;
}

export function createGemini(config: ProviderConfig, deps: HttpDeps = {}): Provider {
  const baseUrl = trimBaseUrl(config.baseUrl ?? GEMINI_BASE_URL);
  return {
    kind: 'gemini',
    baseUrl,
    async complete(request, options = {}) {
      if (!config.apiKey) throw missingKeyError('gemini');
      const model = request.model.replace(/^models\//, '');
      const reply = await postJson(
        {
          provider: 'gemini',
          baseUrl,
          url: endpointUrl(baseUrl, `/models/${encodeURIComponent(model)}:generateContent`),
          headers: { 'x-goog-api-key': config.apiKey },
          body: geminiBody(request),
          model: request.model,
          timeoutMs: config.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
          signal: options.signal,
          secrets: [config.apiKey],
          classify,
          retryDelay,
        },
        deps,
      );
      try {
        return { ...readGemini(reply.json, request.model), latencyMs: reply.latencyMs };
      } catch (e) {
        throw malformedError((e as Error).message, { provider: 'gemini' });
      }
    },
  };
}
