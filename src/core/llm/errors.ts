/**
 * Everything that can go wrong talking to a model, as one error class with a
 * stable `kind` and `code`. All are built by the factories below so messages
 * stay consistent, say what to do, and never contain an API key (provider
 * text is passed through `redact` first).
 */
import type { Diagnostic } from '../diagnostic.ts';
import type { ProviderKind } from './types.ts';

export type LlmErrorKind =
  | 'auth'
  | 'unknown-model'
  | 'cors'
  | 'local-unreachable'
  | 'network'
  | 'quota'
  | 'context-length'
  | 'rate-limited'
  | 'server'
  | 'malformed'
  | 'timeout'
  | 'bad-request'
  | 'aborted'
  | 'no-endpoint'
  | 'unsupported-param'
  | 'redirect'
  | 'base-url'
  | 'no-tools';

const CODES: Record<LlmErrorKind, string> = {
  auth: 'LLM001',
  'unknown-model': 'LLM002',
  cors: 'LLM003',
  'local-unreachable': 'LLM004',
  network: 'LLM005',
  quota: 'LLM006',
  'context-length': 'LLM007',
  'rate-limited': 'LLM008',
  server: 'LLM009',
  malformed: 'LLM010',
  timeout: 'LLM011',
  'bad-request': 'LLM012',
  aborted: 'LLM013',
  'no-endpoint': 'LLM014',
  'unsupported-param': 'LLM015',
  redirect: 'LLM016',
  'base-url': 'LLM017',
  'no-tools': 'LLM018',
};

/**
 * Worth sending the same request again after a pause. A local server that
 * does not answer is retried too (it may be restarting); if it stays down
 * the error is also fatal, so the run stops there and can be resumed.
 */
const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(['network', 'rate-limited', 'server', 'malformed', 'timeout', 'local-unreachable']);

/**
 * Stops a whole run, not just one task: every further request would fail the
 * same way (or the user asked to stop).
 */
const FATAL: ReadonlySet<LlmErrorKind> = new Set([
  'auth',
  'unknown-model',
  'cors',
  'local-unreachable',
  'quota',
  'aborted',
  'no-endpoint',
  'unsupported-param',
  'redirect',
  'base-url',
  'no-tools',
]);

export interface LlmErrorInit {
  readonly provider?: ProviderKind;
  readonly status?: number;
  /** The provider's own words (already redacted). */
  readonly detail?: string;
  readonly retryAfterMs?: number;
}

export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly code: string;
  readonly provider?: ProviderKind;
  readonly status?: number;
  readonly detail?: string;
  /** From a Retry-After header, when the provider sent one. */
  readonly retryAfterMs?: number;

  constructor(kind: LlmErrorKind, message: string, init: LlmErrorInit = {}) {
    super(message);
    this.name = 'LlmError';
    this.kind = kind;
    this.code = CODES[kind];
    this.provider = init.provider;
    this.status = init.status;
    this.detail = init.detail;
    this.retryAfterMs = init.retryAfterMs;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }

  get fatal(): boolean {
    return FATAL.has(this.kind);
  }

  /** The one Diagnostic shape (diagnostic.ts); a request points at no text, so there is no span. */
  toDiagnostic(): Diagnostic<undefined> {
    return requestDiagnostic(this);
  }

  /** Plain data for storage: kind, code, message, status. */
  toJSON(): StoredError {
    return { kind: this.kind, code: this.code, message: this.message, ...(this.status !== undefined ? { status: this.status } : {}) };
  }
}

/** An error as stored in an attempt record. */
export interface StoredError {
  readonly kind: LlmErrorKind;
  readonly code: string;
  readonly message: string;
  readonly status?: number;
}

/**
 * A request error, live or as stored in an attempt record, as a Diagnostic.
 * Whether it is retried is a note: it says what the run does next.
 */
export function requestDiagnostic(e: StoredError): Diagnostic<undefined> {
  // A run's own failure is stored in this shape too (RUN001); what the kind says of requests is not true of it.
  const ours = CODES[e.kind] === e.code;
  const notes = !ours ? [] : [
    ...(RETRYABLE.has(e.kind) ? ['such requests are retried with backoff'] : []),
    ...(FATAL.has(e.kind) ? ['a run stops at this error; it can be resumed'] : []),
  ];
  return { code: e.code, severity: 'error', message: e.message, span: undefined, ...(notes.length ? { notes } : {}) };
}

export function isLlmError(e: unknown): e is LlmError {
  return e instanceof LlmError;
}

const LABEL: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  gemini: 'Google Gemini',
  'openai-compatible': 'The server',
};

function who(p?: ProviderKind): string {
  return p && Object.hasOwn(LABEL, p) ? LABEL[p] : 'The provider';
}

function said(detail?: string): string {
  return detail ? ` It said: ${detail}` : '';
}

export function authError(init: LlmErrorInit): LlmError {
  return new LlmError(
    'auth',
    `${who(init.provider)} rejected the API key (HTTP ${init.status ?? '401'}). Check that the key is right, active, and allowed to use this model.${said(init.detail)}`,
    init,
  );
}

export function missingKeyError(provider: ProviderKind): LlmError {
  return new LlmError('auth', `No API key for ${who(provider)}. Enter one in the settings (browser) or set OSVLAB_API_KEY (CLI).`, {
    provider,
  });
}

export function unknownModelError(model: string, init: LlmErrorInit): LlmError {
  return new LlmError(
    'unknown-model',
    `${who(init.provider)} does not know the model "${model}" (or this key cannot use it). Check the model id.${said(init.detail)}`,
    init,
  );
}

export function corsError(baseUrl: string, init: LlmErrorInit): LlmError {
  const fix = localFix(baseUrl);
  return new LlmError(
    'cors',
    `${baseUrl} answers, but the browser blocked the request: the server does not allow this page's origin (CORS). ${fix}`,
    init,
  );
}

/**
 * Nothing answered at a local or private address. `detail` is the system
 * error code when there is one (Node); a browser gives none, and there the
 * usual cause besides a stopped server is a denied Local Network Access
 * prompt. (A CORS refusal is told apart before this: see `corsError`.)
 */
export function localUnreachableError(baseUrl: string, init: LlmErrorInit): LlmError {
  const code = init.detail ? ` (${init.detail})` : '';
  const browser = init.detail
    ? ''
    : ' If the browser asked whether this page may access devices on your local network, allow it (Chrome: site settings, Local network access).';
  return new LlmError('local-unreachable', `Could not reach ${baseUrl}${code}. Is the local server running and listening on that port?${browser}`, init);
}

/** The connection was closed or reset before the answer arrived: the server went away or restarted mid-request. */
export function connectionLostError(baseUrl: string, init: LlmErrorInit): LlmError {
  return new LlmError('network', `The connection to ${baseUrl} was closed before the answer arrived${init.detail ? ` (${init.detail})` : ''}: the server went away or restarted mid-request. Such requests are retried.`, init);
}

/** A 404 whose body is not an API error: the URL is wrong, not the model. */
export function noEndpointError(url: string, init: LlmErrorInit): LlmError {
  return new LlmError(
    'no-endpoint',
    `No chat endpoint at ${url} (HTTP 404, and the body is not an API error). Check the base URL: OpenAI-compatible servers serve it under /v1, e.g. http://localhost:11434/v1.`,
    init,
  );
}

/** The model refuses a sampling parameter (OpenAI reasoning models and temperature, for one). */
export function unsupportedParamError(init: LlmErrorInit & { readonly param?: string }): LlmError {
  const which = init.param ? ` '${init.param}'` : '';
  return new LlmError(
    'unsupported-param',
    `${who(init.provider)} refused a sampling parameter${which} for this model (HTTP ${init.status ?? 400}). Leave it unset (reasoning models accept only their defaults) and resume the run.${said(init.detail)}`,
    init,
  );
}

/**
 * The provider answered with a redirect. None is followed (docs/providers.md,
 * "Redirects"): a redirect to another host would take the key there (fetch
 * keeps `x-api-key` and `x-goog-api-key` across origins), and a 301-303
 * turns the POST into a GET whose answer is not the model's. `to` is the
 * redirect's target; a browser does not say it (an opaque redirect).
 */
export function redirectError(from: string, to: string | undefined, init: LlmErrorInit): LlmError {
  const status = init.status ? ` (HTTP ${init.status})` : '';
  const host = (u: string) => {
    try {
      return new URL(u);
    } catch {
      return undefined;
    }
  };
  const a = host(from);
  const b = to === undefined ? undefined : host(to);
  const where =
    to === undefined ? `from ${a?.host ?? from} to an address the browser does not show (a page cannot read where a redirect points)`
    : a && b && a.origin === b.origin ? `to ${b.pathname} on the same host (${a.host})`
    : `from ${a?.host ?? from} to ${b?.host ?? to}, another host`;
  return new LlmError(
    'redirect',
    `${who(init.provider)} answered the request with a redirect${status} ${where}. OSVLab follows no redirect, so the key and the prompt go only to the base URL's host: set the base URL to the provider's own endpoint.`,
    init,
  );
}

/**
 * The model refuses tool calling (Ollama's "does not support tools", vLLM
 * without its tool parser): an agent run cannot go on with it. The run stops
 * as it does for any fatal error and can be resumed, or run in another mode.
 */
export function noToolsError(model: string, init: LlmErrorInit): LlmError {
  return new LlmError(
    'no-tools',
    `${who(init.provider)} refused tool calling for the model "${model}" (HTTP ${init.status ?? 400}): the agent mode needs a model that calls tools. Choose another model, or run this one with one answer or repair rounds.${said(init.detail)}`,
    init,
  );
}

/** A base URL that cannot be used (docs/providers.md, "Base URLs"); `why` is baseUrlProblem's answer. */
export function baseUrlError(why: string, init: LlmErrorInit = {}): LlmError {
  return new LlmError('base-url', `The base URL cannot be used: ${why}.`, init);
}

export function networkError(baseUrl: string, init: LlmErrorInit): LlmError {
  return new LlmError('network', `Could not reach ${baseUrl} (network error). Check the connection and the base URL.${said(init.detail)}`, init);
}

export function quotaError(init: LlmErrorInit): LlmError {
  return new LlmError(
    'quota',
    `${who(init.provider)} says the account has no quota or credit left (HTTP ${init.status ?? 429}). Add credit or raise the limit, then resume the run.${said(init.detail)}`,
    init,
  );
}

export function contextLengthError(init: LlmErrorInit): LlmError {
  return new LlmError(
    'context-length',
    `The prompt is longer than the model's context window. Use a model with a longer context or fewer shots.${said(init.detail)}`,
    init,
  );
}

export function rateLimitedError(init: LlmErrorInit): LlmError {
  const wait = init.retryAfterMs !== undefined ? ` It asked to wait ${Math.ceil(init.retryAfterMs / 1000)} s.` : '';
  return new LlmError('rate-limited', `${who(init.provider)} is rate limiting requests (HTTP 429).${wait}${said(init.detail)}`, init);
}

export function serverError(init: LlmErrorInit): LlmError {
  return new LlmError('server', `${who(init.provider)} had a server error (HTTP ${init.status ?? 500}).${said(init.detail)}`, init);
}

export function malformedError(what: string, init: LlmErrorInit): LlmError {
  return new LlmError('malformed', `${who(init.provider)} sent a response we could not read: ${what}.`, init);
}

export function timeoutError(ms: number, init: LlmErrorInit): LlmError {
  return new LlmError('timeout', `No answer within ${Math.round(ms / 1000)} s; the request was abandoned.`, init);
}

export function badRequestError(init: LlmErrorInit): LlmError {
  return new LlmError('bad-request', `${who(init.provider)} refused the request (HTTP ${init.status ?? 400}).${said(init.detail)}`, init);
}

export function abortedError(): LlmError {
  return new LlmError('aborted', 'Cancelled.');
}

function localFix(baseUrl: string): string {
  if (/:11434\b/.test(baseUrl) || /ollama/i.test(baseUrl)) {
    return 'For Ollama, start it with OLLAMA_ORIGINS set to this page\'s origin (e.g. OLLAMA_ORIGINS="https://your.host" ollama serve; "*" allows any).';
  }
  if (/:1234\b/.test(baseUrl) || /lm.?studio/i.test(baseUrl)) {
    return 'For LM Studio, turn on "Enable CORS" in the Developer tab\'s server settings and restart the server.';
  }
  return 'Enable CORS on the server for this page\'s origin (for Ollama set OLLAMA_ORIGINS; in LM Studio turn on "Enable CORS" in the server settings).';
}

/**
 * Removes secrets from provider text: every occurrence of each secret, any
 * 6+ character fragment of one (providers echo masked keys like
 * "sk-abc****wxyz"), and anything shaped like a well-known key.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s) continue;
    out = out.split(s).join('[redacted]');
  }
  out = out.replace(/\b(sk-[A-Za-z0-9_\-*.]{3,}|AIza[A-Za-z0-9_\-*]{6,}|[A-Za-z0-9_\-]*\*{3,}[A-Za-z0-9_\-*]*)/g, '[redacted]');
  for (const s of secrets) {
    if (!s || s.length < 8) continue;
    for (let i = 0; i + 6 <= s.length; i++) {
      const frag = s.slice(i, i + 6);
      if (out.includes(frag)) out = out.split(frag).join('[redacted]');
    }
  }
  return out;
}
