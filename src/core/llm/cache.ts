/**
 * The response cache: a successful completion stored under the hash of
 * everything that determines it (provider, base URL, model, messages,
 * sampling parameters, sample index). Never the API key, never an error.
 * Storage sits behind `ResponseCacheStore`: Dexie in the browser, a JSONL
 * file for the CLI.
 */
import { canonicalJson, sha256Hex } from '../hash.ts';
import { type ChatMessage, type Completion, type CompletionRequest, type ProviderKind, paramsOf } from './types.ts';

/** Bump when the key's recipe changes, so old entries stop matching. */
const KEY_VERSION = 1;

export interface CacheEntry {
  readonly key: string;
  /** The answer without `raw` (bodies can be large and are not needed again). */
  readonly completion: Completion;
  /** When it was stored (ms since the epoch). */
  readonly createdAt: number;
}

export interface ResponseCacheStore {
  getCached(key: string): Promise<CacheEntry | undefined>;
  putCached(entry: CacheEntry): Promise<void>;
}

/** The cache key of a request to a given endpoint. */
export function cacheKey(provider: ProviderKind, baseUrl: string, request: CompletionRequest): Promise<string> {
  return sha256Hex(
    canonicalJson({
      v: KEY_VERSION,
      provider,
      baseUrl: baseUrl.replace(/\/+$/, ''),
      model: request.model,
      messages: request.messages.map(keyedMessage),
      params: paramsOf(request),
      sample: request.sample ?? 0,
      // Written only when tools are offered, so the keys of plain requests stay what they were.
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
    }),
  );
}

/** A message as the key reads it: role and text, and a tool turn's calls, ids and replayed data when it has them. */
function keyedMessage(m: ChatMessage): Record<string, unknown> {
  return {
    role: m.role,
    content: m.content,
    ...(m.toolCalls && m.toolCalls.length > 0 ? { toolCalls: m.toolCalls } : {}),
    ...(m.toolCallId !== undefined ? { toolCallId: m.toolCallId } : {}),
    ...(m.toolName !== undefined ? { toolName: m.toolName } : {}),
    ...(m.replay !== undefined ? { replay: m.replay } : {}),
  };
}

/** The completion as it goes into the cache. */
export function cacheable(c: Completion): Completion {
  const { raw: _raw, ...rest } = c;
  return rest;
}

/** An in-memory cache, for one-off CLI calls and as a reference implementation. */
export class MemoryResponseCache implements ResponseCacheStore {
  private readonly map = new Map<string, CacheEntry>();
  async getCached(key: string): Promise<CacheEntry | undefined> {
    return this.map.get(key);
  }
  async putCached(entry: CacheEntry): Promise<void> {
    this.map.set(entry.key, entry);
  }
  get size(): number {
    return this.map.size;
  }
}
