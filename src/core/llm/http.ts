/**
 * One JSON POST to a provider, with a per-request timeout, cancellation, and
 * every failure turned into a typed `LlmError`. Provider adapters build the
 * body and read the answer; this file knows how HTTP and fetch fail.
 */
import { type Clock, realClock, throwIfAborted } from './clock.ts';
import {
  LlmError,
  type LlmErrorKind,
  abortedError,
  authError,
  badRequestError,
  connectionLostError,
  contextLengthError,
  noToolsError,
  corsError,
  localUnreachableError,
  malformedError,
  networkError,
  noEndpointError,
  quotaError,
  rateLimitedError,
  redact,
  redirectError,
  baseUrlError,
  serverError,
  timeoutError,
  unknownModelError,
  unsupportedParamError,
} from './errors.ts';
import { parseRetryAfter } from './retry.ts';
import type { ProviderKind } from './types.ts';

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

/** What adapters can inject: the fetch to use and the clock that measures latency. */
export interface HttpDeps {
  readonly fetch?: FetchFn;
  readonly clock?: Clock;
}

/** What an error body said, flattened for matching. */
export interface ErrorInfo {
  readonly status: number;
  /** The provider's message (redacted). */
  readonly message: string;
  /** Codes, types and statuses from the body, lower-case, space-separated. */
  readonly codes: string;
  readonly body: unknown;
}

export interface PostJson {
  readonly provider: ProviderKind;
  readonly baseUrl: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly model: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Strings that must never appear in an error (the API key). */
  readonly secrets: readonly (string | undefined)[];
  /** Provider-specific reading of an error body; undefined falls back to the generic rules. */
  readonly classify?: (info: ErrorInfo) => LlmErrorKind | undefined;
  /** Provider-specific retry delay from an error body (Gemini's RetryInfo). */
  readonly retryDelay?: (info: ErrorInfo) => number | undefined;
}

export interface JsonReply {
  readonly json: unknown;
  readonly latencyMs: number;
}

/** Sends the request; resolves with the parsed JSON body of a 2xx answer. */
export async function postJson(req: PostJson, deps: HttpDeps = {}): Promise<JsonReply> {
  const doFetch = deps.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const clock = deps.clock ?? realClock;
  throwIfAborted(req.signal);

  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort();
  req.signal?.addEventListener('abort', onAbort, { once: true });
  // A wall-clock timer on purpose: an injected test clock that skips waits
  // (for backoff) would otherwise time every request out at once.
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);

  const started = clock.now();
  const ctx = { provider: req.provider };
  let response: Response;
  let text: string;
  try {
    response = await doFetch(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...req.headers },
      body: JSON.stringify(req.body),
      signal: controller.signal,
      // No redirect is followed: see redirectOf.
      redirect: 'manual',
    });
    text = await response.text();
  } catch (e) {
    if (req.signal?.aborted) throw abortedError();
    if (timedOut) throw timeoutError(req.timeoutMs, ctx);
    throw await fetchFailure(e, req, doFetch);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
  const latencyMs = clock.now() - started;
  answered.add(req.baseUrl);
  const redirect = redirectOf(response, req);
  if (redirect) throw redirect;

  if (!response.ok) throw errorFromResponse(response, text, req, clock.now());
  try {
    return { json: JSON.parse(text), latencyMs };
  } catch {
    throw malformedError(`the body is not JSON (${describeStart(text, req.secrets)})`, { ...ctx, status: response.status });
  }
}

const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

/**
 * A redirect answer, as an error (docs/providers.md, "Redirects"). None is
 * followed, same host or not: fetch would resend `x-api-key` and
 * `x-goog-api-key` to another host (it drops only Authorization), and after
 * a 301-303 it sends a bodiless GET whose answer would be graded as the
 * model's. Node shows the 3xx and its Location; a browser gives an opaque
 * redirect (type "opaqueredirect", status 0) that does not say where to.
 */
function redirectOf(response: Response, req: PostJson): LlmError | undefined {
  const ctx = { provider: req.provider };
  if (response.type === 'opaqueredirect') return redirectError(req.url, undefined, ctx);
  if (!REDIRECT_STATUS.has(response.status)) return undefined;
  const location = response.headers.get('location');
  if (location === null) return undefined;
  let to: string;
  try {
    to = redact(new URL(location, req.url).href, req.secrets);
  } catch {
    return undefined;
  }
  return redirectError(req.url, to, { ...ctx, status: response.status });
}

function describeStart(text: string, secrets: readonly (string | undefined)[]): string {
  const t = redact(text.trim().slice(0, 60), secrets);
  return t ? `starts "${t}"` : 'empty';
}

/** Is the base URL on this machine or the local network? */
export function isLocalUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}

const CONNECT_CODES = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_CLOSED)$/;
/** The server was there and went away mid-request: worth retrying, never "unreachable". */
const LOST_CODES = /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/;

/** Base URLs that have answered in this page or process: a later bare TypeError there is not CORS. */
const answered = new Set<string>();

/** The system error code under a fetch TypeError (Node puts it in `cause`); browsers give none. */
function causeCode(e: unknown): string | undefined {
  let c: unknown = e;
  for (let depth = 0; depth < 4 && c && typeof c === 'object'; depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECT_CODES.test(code)) return code;
    const inner = (c as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.length > 0) {
      const ic = (inner[0] as { code?: unknown }).code;
      if (typeof ic === 'string') return ic;
    }
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A fetch that threw. Node says why (connection refused, reset, DNS); a
 * browser says only "Failed to fetch", for a dead server and a CORS refusal
 * alike. Then a `no-cors` probe of the base URL tells them apart: it
 * succeeds (opaque answer) when the server is up, so the real request must
 * have been blocked by CORS, unless this base URL has answered before (then
 * CORS is evidently allowed and the connection was merely lost).
 */
async function fetchFailure(e: unknown, req: PostJson, doFetch: FetchFn): Promise<LlmError> {
  const ctx = { provider: req.provider };
  const local = isLocalUrl(req.baseUrl);
  const code = causeCode(e);
  if (code !== undefined && LOST_CODES.test(code)) return connectionLostError(req.baseUrl, { ...ctx, detail: code });
  if (code === undefined && isTypeError(e) && !req.signal?.aborted) {
    const up = await reachable(req.baseUrl, doFetch, req.signal);
    if (up && answered.has(req.baseUrl)) return connectionLostError(req.baseUrl, ctx);
    if (up) return corsError(req.baseUrl, ctx);
  }
  if (local) return localUnreachableError(req.baseUrl, { ...ctx, detail: code });
  const detail = code ?? (e instanceof Error ? redact(e.message, req.secrets) : undefined);
  return networkError(req.baseUrl, { ...ctx, detail });
}

function isTypeError(e: unknown): boolean {
  return e instanceof TypeError || (e instanceof Error && e.name === 'TypeError');
}

async function reachable(baseUrl: string, doFetch: FetchFn, signal?: AbortSignal): Promise<boolean> {
  const probe = new AbortController();
  const onAbort = () => probe.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => probe.abort(), 5000);
  try {
    await doFetch(baseUrl, { method: 'GET', mode: 'no-cors', signal: probe.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function field(o: unknown, k: string): unknown {
  return o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined;
}

/** Reads the usual error body shapes: {error:{message,type,code,status}}, {error:"..."}, {message}. */
function readErrorBody(status: number, text: string, secrets: readonly (string | undefined)[]): ErrorInfo {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const err = field(body, 'error');
  const parts: string[] = [];
  let message: string | undefined;
  if (typeof err === 'string') message = err;
  else if (err && typeof err === 'object') {
    const m = field(err, 'message');
    if (typeof m === 'string') message = m;
    for (const k of ['type', 'code', 'status']) {
      const v = field(err, k);
      if (typeof v === 'string' || typeof v === 'number') parts.push(String(v));
    }
    const details = field(err, 'details');
    if (Array.isArray(details)) for (const d of details) {
      const r = field(d, 'reason');
      if (typeof r === 'string') parts.push(r);
    }
  }
  if (message === undefined) {
    const m = field(body, 'message') ?? field(body, 'detail');
    if (typeof m === 'string') message = m;
  }
  const t = field(body, 'type');
  if (typeof t === 'string') parts.push(t);
  if (message === undefined) message = body === undefined ? text.trim().slice(0, 200) : '';
  return { status, message: redact(message, secrets), codes: parts.join(' ').toLowerCase(), body };
}

const CONTEXT = /context.length|context_length|maximum context|context window|prompt is too long|too many tokens|exceeds the maximum number of tokens|input is too long|reduce the length/i;
const MODEL = /model_not_found|model.{0,80}(not found|does not exist|not exist|is not supported|unknown|not available)|no such model|unknown model|invalid model/i;
const QUOTA = /insufficient_quota|billing|credit|balance|payment required|spend.?limit|reached your specified api usage limits/i;
/** A sampling parameter the model refuses (OpenAI's unsupported_value/unsupported_parameter, and the same in words elsewhere). */
const UNSUPPORTED = /unsupported_value|unsupported_parameter|unsupported (value|parameter)|(temperature|top_p|top_k|topp).{0,60}(not supported|is deprecated|may only be set|does not support|unsupported)/i;

/** The model takes no tools (Ollama, vLLM without --enable-auto-tool-choice, Gemini models without function calling). */
const NO_TOOLS = /does not support tools|tools? (are|is) not supported|(tool use|tool calling|tool calls|function calling)[^.]{0,40}(not supported|not enabled|unsupported)|enable-auto-tool-choice/i;

/** The generic reading of an HTTP error status and body. */
function genericKind(info: ErrorInfo): LlmErrorKind {
  const text = `${info.codes} ${info.message}`;
  const s = info.status;
  if (s === 401 || s === 403) return 'auth';
  if (s === 402) return 'quota';
  if (s === 413) return 'context-length';
  if (s === 429) return QUOTA.test(text) ? 'quota' : 'rate-limited';
  if (s === 408) return 'timeout';
  // A 404 that is not an API error body is a wrong URL (no /v1, a typo), not an unknown model.
  if (s === 404) return info.body === undefined ? 'no-endpoint' : 'unknown-model';
  // 409 (conflict: a lock or a model still loading), 5xx and 529 (overloaded) pass.
  if (s === 409 || s >= 500) return 'server';
  if (CONTEXT.test(text)) return 'context-length';
  if (NO_TOOLS.test(text)) return 'no-tools';
  if (UNSUPPORTED.test(text)) return 'unsupported-param';
  if (MODEL.test(text)) return 'unknown-model';
  if (QUOTA.test(text)) return 'quota';
  return 'bad-request';
}

/** The parameter a 400 names (OpenAI's error.param), if any. */
function paramOf(info: ErrorInfo): string | undefined {
  const p = field(field(info.body, 'error'), 'param');
  if (typeof p === 'string') return p;
  return /'(temperature|top_p|top_k|seed|max_tokens|max_completion_tokens|reasoning_effort)'/.exec(info.message)?.[1];
}

function errorFromResponse(res: Response, text: string, req: PostJson, nowMs: number): LlmError {
  const info = readErrorBody(res.status, text, req.secrets);
  const kind = req.classify?.(info) ?? genericKind(info);
  const headerMs = res.headers.get('retry-after-ms');
  const retryAfterMs =
    (headerMs && /^\d+(\.\d+)?$/.test(headerMs.trim()) ? Math.round(Number(headerMs)) : undefined) ??
    parseRetryAfter(res.headers.get('retry-after'), nowMs) ??
    req.retryDelay?.(info);
  const init = { provider: req.provider, status: res.status, detail: info.message || undefined, retryAfterMs };
  switch (kind) {
    case 'auth':
      return authError(init);
    case 'unknown-model':
      return unknownModelError(req.model, init);
    case 'quota':
      return quotaError(init);
    case 'context-length':
      return contextLengthError(init);
    case 'rate-limited':
      return rateLimitedError(init);
    case 'server':
      return serverError(init);
    case 'timeout':
      return timeoutError(req.timeoutMs, init);
    case 'malformed':
      return malformedError(info.message, init);
    case 'cors':
      return corsError(req.baseUrl, init);
    case 'local-unreachable':
      return localUnreachableError(req.baseUrl, init);
    case 'network':
      return networkError(req.baseUrl, init);
    case 'aborted':
      return abortedError();
    case 'bad-request':
      return badRequestError(init);
    case 'no-endpoint':
      return noEndpointError(req.url, init);
    case 'unsupported-param':
      return unsupportedParamError({ ...init, param: paramOf(info) });
    case 'redirect':
      return redirectError(req.url, undefined, init);
    case 'base-url':
      return baseUrlError(`${req.baseUrl} was refused`, init);
    case 'no-tools':
      return noToolsError(req.model, init);
  }
}
