/**
 * The provider-neutral shape of one chat completion: what we send and what
 * comes back. Plain JSON data, so requests and answers go into storage and
 * exports as they are. Nothing here ever holds an API key.
 */

export type ProviderKind = 'openai' | 'anthropic' | 'gemini' | 'openai-compatible';

export const PROVIDER_KINDS: readonly ProviderKind[] = ['openai', 'anthropic', 'gemini', 'openai-compatible'];

/**
 * One message of a conversation. Tool calling (docs/providers.md, "Tool
 * calling") adds two shapes: an assistant message with `toolCalls`, and a
 * `tool` message that answers one call by its id. `replay` holds what the
 * provider asked to be sent back unchanged with the assistant's turn
 * (Anthropic's content blocks with their thinking signatures, Gemini's
 * parts with their thought signatures); only the adapter of `replay.kind`
 * reads it, any other sends the text and calls.
 */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  /** An assistant turn's tool calls, in the order the model made them. */
  readonly toolCalls?: readonly ToolCall[];
  /** A tool message: the id of the call it answers. */
  readonly toolCallId?: string;
  /** A tool message: the name of the tool that answered (Gemini's functionResponse needs it). */
  readonly toolName?: string;
  readonly replay?: Replay;
}

/** A tool the model may call: a name, what it does, and a JSON Schema of its arguments. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * One call the model made. `arguments` is the text the model sent, which
 * need not be valid JSON (OpenAI's wire carries a string); Gemini and
 * Anthropic send an object, kept as its JSON.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** Provider data sent back unchanged with the assistant turn it came in. */
export interface Replay {
  readonly kind: ProviderKind;
  readonly data: unknown;
}

/** How hard a reasoning model thinks; each adapter maps it to its provider's own control. */
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['minimal', 'low', 'medium', 'high'];

/**
 * `table`'s entry for a reasoning effort, own keys only; a value that is not
 * an effort (one read back from storage, `constructor`) is refused rather
 * than sent as Object's members.
 */
export function effortEntry<T>(table: Readonly<Record<ReasoningEffort, T>>, effort: string): T {
  if (!Object.hasOwn(table, effort)) throw new Error(`unknown reasoning effort '${effort}' (known: ${REASONING_EFFORTS.join(', ')})`);
  return table[effort as ReasoningEffort];
}

/**
 * Sampling parameters; an absent field is left to the provider's default
 * (docs/providers.md "Sampling parameters"). Nothing is filled in for the
 * user: reasoning models reject a temperature other than their default.
 */
export interface SamplingParams {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  /** Honoured by OpenAI, Gemini and most OpenAI-compatible servers; Anthropic has none. */
  readonly seed?: number;
  readonly stop?: readonly string[];
  /** OpenAI `reasoning_effort`, Anthropic extended-thinking budget, Gemini thinking level or budget. */
  readonly reasoningEffort?: ReasoningEffort;
}

export interface CompletionRequest extends SamplingParams {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /**
   * Which of the n samples for the same prompt this is (0-based). Not sent to
   * the provider; it keeps samples apart in the response cache.
   */
  readonly sample?: number;
  /** Tools the model may call (absent or empty: none are offered). */
  readonly tools?: readonly ToolSpec[];
}

export interface Usage {
  readonly input: number;
  /** Every generated token billed as output, thinking included. */
  readonly output: number;
  /** Of `output`, the thinking/reasoning tokens, when the provider reports them. */
  readonly reasoning?: number;
  /**
   * Set when the provider's counts were missing or not counts (negative,
   * fractional, not numbers; usage.ts): the numbers above are what could be
   * read, 0 for the rest, and the answer's cost is unknown.
   */
  readonly unknown?: true;
}

/** Why generation stopped, normalised; `raw` keeps the provider's word. */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'other';

export interface Completion {
  readonly text: string;
  /** The model id the provider says answered (may be more specific than the one asked for). */
  readonly model: string;
  readonly usage: Usage;
  readonly finishReason: FinishReason;
  readonly rawFinishReason?: string;
  /** The provider's parsed response body, for debugging; never stored in the cache. */
  readonly raw?: unknown;
  readonly latencyMs: number;
  /** The tool calls of this turn (absent: none). */
  readonly toolCalls?: readonly ToolCall[];
  /** What must go back with this turn when the conversation continues (see ChatMessage.replay). */
  readonly replay?: Replay;
}

export interface CompleteOptions {
  readonly signal?: AbortSignal;
}

/** One provider endpoint, speaking its own wire format over fetch. */
export interface Provider {
  readonly kind: ProviderKind;
  /** Base URL without a trailing slash, e.g. "https://api.openai.com/v1". */
  readonly baseUrl: string;
  /** One HTTP request, no retries: throws an `LlmError` on failure. */
  complete(request: CompletionRequest, options?: CompleteOptions): Promise<Completion>;
}

/** How to reach a provider. The key lives only here, in memory. */
export interface ProviderConfig {
  readonly kind: ProviderKind;
  /** Defaults to the provider's public endpoint; required for openai-compatible. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** Per-request timeout in milliseconds (default `DEFAULT_REQUEST_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
}

/** A request's time limit when none is given: ten minutes, as long prompts take minutes. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/** What was sent, as recorded in attempts and exports: no key, no headers. */
export interface SentRequest {
  readonly provider: ProviderKind;
  readonly baseUrl: string;
  readonly model: string;
  readonly params: SamplingParams;
  readonly sample: number;
}

/** The sampling parameters present in a request, without undefined fields. */
export function paramsOf(r: SamplingParams): SamplingParams {
  const out: { -readonly [K in keyof SamplingParams]: SamplingParams[K] } = {};
  if (r.temperature !== undefined) out.temperature = r.temperature;
  if (r.topP !== undefined) out.topP = r.topP;
  if (r.maxTokens !== undefined) out.maxTokens = r.maxTokens;
  if (r.seed !== undefined) out.seed = r.seed;
  if (r.stop !== undefined && r.stop.length > 0) out.stop = [...r.stop];
  if (r.reasoningEffort !== undefined) out.reasoningEffort = r.reasoningEffort;
  return out;
}
