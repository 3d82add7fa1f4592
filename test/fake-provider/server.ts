/**
 * A fake LLM provider: a real HTTP server on 127.0.0.1 (random port; another
 * loopback address when asked, to stand for another host) that
 * speaks the OpenAI chat completions, Anthropic Messages and Gemini
 * generateContent wire formats, including their error bodies, usage fields
 * and CORS preflights. Tests script it with a queue of replies or a function
 * that picks a reply from the request, and read back every request it got.
 *
 * Routes (any prefix, so a base URL like http://127.0.0.1:PORT/v1 works):
 *   POST  .../chat/completions                    OpenAI and OpenAI-compatible
 *   POST  .../messages                            Anthropic
 *   POST  .../models/{model}:generateContent      Gemini
 *   OPTIONS anything                              CORS preflight
 *   GET   anything                                200 "fake provider" (reachability probes)
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { netDelay } from '../net-delay.ts';

export type Wire = 'openai' | 'anthropic' | 'gemini';

export interface ReceivedRequest {
  readonly wire: Wire;
  readonly method: string;
  readonly path: string;
  /** The query string of the request's URL ("" or "?..."). */
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (undefined when it was not JSON). */
  readonly body: any;
  readonly model: string;
  /** All message text of the request joined with newlines, for matching by content. */
  readonly prompt: string;
  /** The key the request carried (Authorization bearer, x-api-key or x-goog-api-key), if any. */
  readonly key?: string;
}

export type FakeReply =
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly model?: string;
      readonly usage?: { readonly input: number; readonly output: number; readonly reasoning?: number };
      /** 'length' means the answer was cut at max tokens. */
      readonly finish?: 'stop' | 'length';
      /**
       * Reasoning the model did, in each wire's own form: an Anthropic `thinking` block, a Gemini
       * `thought: true` part; OpenAI shows none. Its tokens are `usage.reasoning` (default: none).
       */
      readonly thinking?: string;
    }
  /**
   * A turn of tool calls, in each wire's own form: OpenAI `tool_calls` (finish_reason "tool_calls"),
   * Anthropic `tool_use` blocks (stop_reason "tool_use", after a signed `thinking` block and a
   * `redacted_thinking` block when `thinking` is set), Gemini `functionCall` parts, each with a
   * `thoughtSignature`. An `arguments` string goes as it is on OpenAI (it may be no JSON at all);
   * the others carry an object, so a string that does not parse goes there as a JSON string.
   */
  | {
      readonly kind: 'tools';
      readonly calls: readonly { readonly name: string; readonly arguments: string | Readonly<Record<string, unknown>> }[];
      readonly text?: string;
      readonly thinking?: string;
      readonly usage?: { readonly input: number; readonly output: number };
    }
  /** A 400 saying the model does not support tools, in each provider's words. */
  | { readonly kind: 'no-tools' }
  /** The model declined: OpenAI message.refusal, Anthropic stop_reason "refusal", Gemini finishReason SAFETY. */
  | { readonly kind: 'refusal' }
  /** The connection is destroyed before any answer (a server killed mid-request). */
  | { readonly kind: 'reset' }
  /** 429 with the provider's rate-limit body; `retryAfter` goes in the Retry-After header as is. */
  | { readonly kind: 'rate-limit'; readonly retryAfter?: string }
  /** Out of money: 429 insufficient_quota (OpenAI), 400 credit balance (Anthropic), 429 per-day quota (Gemini). */
  | { readonly kind: 'quota' }
  | { readonly kind: 'server-error'; readonly status?: number }
  | { readonly kind: 'auth' }
  | { readonly kind: 'unknown-model' }
  | { readonly kind: 'context-too-long' }
  /** 200 with a body that is not JSON. */
  | { readonly kind: 'malformed' }
  /** 200 with JSON of the wrong shape. */
  | { readonly kind: 'wrong-shape' }
  | { readonly kind: 'slow'; readonly ms: number; readonly reply: FakeReply }
  /** Answers `reply` once `gate` settles: the test decides when, whatever the machine's speed. */
  | { readonly kind: 'gated'; readonly gate: Promise<unknown>; readonly reply: FakeReply }
  /** Never answers (until the client gives up or the server closes). */
  | { readonly kind: 'hang' }
  | { readonly kind: 'raw'; readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> };

export type Responder = (request: ReceivedRequest) => FakeReply;

export interface FakeProviderOptions {
  /** 'allow' (default) answers preflights with Access-Control-Allow-*; 'refuse' omits them. */
  readonly cors?: 'allow' | 'refuse';
  /** When set, requests with any other key get the wire's 401 (400 for Gemini). */
  readonly key?: string;
  /**
   * A reasoning model's rules: a request that sets temperature or top_p gets the wire's 400
   * (OpenAI's unsupported_value, and the same in each provider's error format).
   */
  readonly rejectSampling?: boolean;
  /** The port to listen on (default: a free one). */
  readonly port?: number;
  /** The loopback address to listen on (default 127.0.0.1); 127.0.0.2 stands for another host. */
  readonly host?: string;
}

export interface FakeProvider {
  /** http://HOST:PORT (no trailing slash). */
  readonly url: string;
  /** Completion requests received, in order (preflights and GETs excluded). */
  readonly requests: ReceivedRequest[];
  /** Preflight (OPTIONS) requests received. */
  readonly preflights: { path: string; headers: Record<string, string> }[];
  /** GET requests received (reachability probes, or a POST a client turned into a GET after a redirect). */
  readonly gets: { path: string; headers: Record<string, string> }[];
  /** Queues replies; each request takes the next one. */
  enqueue(...replies: FakeReply[]): void;
  /** Answers requests the queue does not cover. */
  respond(fn: Responder): void;
  /** Forgets queued replies, the responder and the recorded requests. */
  reset(): void;
  cors: 'allow' | 'refuse';
  /** Requests currently being answered (for concurrency assertions). */
  readonly inFlight: number;
  /** The most requests ever answered at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const queue: FakeReply[] = [];
  let responder: Responder | undefined;
  const requests: ReceivedRequest[] = [];
  const preflights: { path: string; headers: Record<string, string> }[] = [];
  const gets: { path: string; headers: Record<string, string> }[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;
  let ids = 0;

  const fake: FakeProvider = {
    url: '',
    requests,
    preflights,
    gets,
    enqueue: (...r) => void queue.push(...r),
    respond: (fn) => void (responder = fn),
    reset() {
      queue.length = 0;
      responder = undefined;
      requests.length = 0;
      preflights.length = 0;
      gets.length = 0;
      maxInFlight = inFlight;
    },
    cors: options.cors ?? 'allow',
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    if (fake.cors !== 'allow') return {};
    return {
      'access-control-allow-origin': req.headers.origin ?? '*',
      'access-control-allow-methods': 'POST, GET, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-expose-headers': 'retry-after, retry-after-ms',
      'access-control-max-age': '600',
    };
  }

  const server: Server = createServer(async (req, res) => {
    // The stress mode's slow network: the request is on its way this long.
    await netDelay();
    if (res.destroyed) return;
    const [path, ...rest] = (req.url ?? '/').split('?');
    const query = rest.length ? `?${rest.join('?')}` : '';
    const headers = flatHeaders(req);
    if (req.method === 'OPTIONS') {
      preflights.push({ path, headers });
      res.writeHead(204, corsHeaders(req)).end();
      return;
    }
    if (req.method === 'GET') {
      gets.push({ path, headers });
      res.writeHead(200, { 'content-type': 'text/plain', ...corsHeaders(req) }).end('fake provider');
      return;
    }
    const text = await readBody(req);
    const wire = wireOf(path);
    if (!wire) {
      // What a server without the route says (Ollama's Go mux, for one): plain text, not an API error.
      res.writeHead(404, { 'content-type': 'text/plain', ...corsHeaders(req) }).end('404 page not found');
      return;
    }
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const received: ReceivedRequest = {
      wire,
      method: req.method ?? 'POST',
      path,
      query,
      headers,
      body,
      model: modelOf(wire, path, body),
      prompt: promptOf(wire, body),
      key: keyOf(headers),
    };
    requests.push(received);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);

    let reply: FakeReply;
    if (options.key !== undefined && received.key !== options.key) reply = { kind: 'auth' };
    else if (options.rejectSampling && samplingSet(wire, body)) reply = { kind: 'raw', status: 400, body: samplingRejected(wire, samplingSet(wire, body)!) };
    else if (wire === 'anthropic' && !headers['anthropic-version']) reply = { kind: 'raw', status: 400, body: anthropicError('invalid_request_error', 'anthropic-version: header is required') };
    else reply = queue.shift() ?? responder?.(received) ?? { kind: 'raw', status: 500, body: '{"error":{"message":"fake provider: no reply scripted"}}' };
    send(res, req, received, reply, ++ids);
  });

  function send(res: ServerResponse, req: IncomingMessage, r: ReceivedRequest, reply: FakeReply, id: number): void {
    const cors = corsHeaders(req);
    const json = (status: number, body: unknown, extra: Record<string, string> = {}): void =>
      void res.writeHead(status, { 'content-type': 'application/json', ...cors, ...extra }).end(JSON.stringify(body));
    switch (reply.kind) {
      case 'slow': {
        const t = setTimeout(() => {
          timers.delete(t);
          if (!res.destroyed) send(res, req, r, reply.reply, id);
        }, reply.ms);
        timers.add(t);
        return;
      }
      case 'gated':
        void reply.gate.then(() => {
          if (!res.destroyed) send(res, req, r, reply.reply, id);
        });
        return;
      case 'hang':
        return;
      case 'reset':
        res.socket?.destroy();
        return;
      case 'refusal':
        return json(200, refusalBody(r.wire, r.model, id));
      case 'raw':
        res.writeHead(reply.status, { 'content-type': 'application/json', ...cors, ...(reply.headers ?? {}) }).end(reply.body);
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json', ...cors }).end('{"choices": [{"message": {"content": "trunc');
        return;
      case 'wrong-shape':
        return json(200, { hello: 'world' });
      case 'tools': {
        const usage = reply.usage ?? { input: Math.ceil(r.prompt.length / 4), output: 20 };
        return json(200, toolsBody(r.wire, r.model, reply, usage, id));
      }
      case 'no-tools':
        return json(400, noToolsBody(r.wire, r.model));
      case 'text': {
        const usage = reply.usage ?? { input: Math.ceil(r.prompt.length / 4), output: Math.ceil(reply.text.length / 4) };
        return json(200, successBody(r.wire, reply.model ?? r.model, reply.text, usage, reply.finish ?? 'stop', id, reply.thinking));
      }
      default: {
        const e = errorBody(r.wire, reply.kind, r);
        const extra: Record<string, string> = {};
        if (reply.kind === 'rate-limit' && reply.retryAfter !== undefined) extra['retry-after'] = reply.retryAfter;
        const status = reply.kind === 'server-error' && reply.status ? reply.status : e.status;
        return json(status, e.body, extra);
      }
    }
  }

  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  (fake as { url: string }).url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return fake;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function wireOf(path: string): Wire | undefined {
  if (path.endsWith('/chat/completions')) return 'openai';
  if (path.endsWith('/messages')) return 'anthropic';
  if (/\/models\/[^/]+:generateContent$/.test(path)) return 'gemini';
  return undefined;
}

function modelOf(wire: Wire, path: string, body: any): string {
  if (wire === 'gemini') return decodeURIComponent(/\/models\/([^/]+):generateContent$/.exec(path)![1]);
  return typeof body?.model === 'string' ? body.model : '';
}

function promptOf(wire: Wire, body: any): string {
  if (!body) return '';
  const parts: string[] = [];
  if (wire === 'gemini') {
    for (const p of body.systemInstruction?.parts ?? []) parts.push(String(p.text ?? ''));
    for (const c of body.contents ?? []) for (const p of c.parts ?? []) parts.push(String(p.text ?? ''));
  } else {
    if (typeof body.system === 'string') parts.push(body.system);
    for (const m of body.messages ?? []) parts.push(typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
  }
  return parts.join('\n');
}

function keyOf(h: Record<string, string>): string | undefined {
  if (h.authorization?.startsWith('Bearer ')) return h.authorization.slice(7);
  return h['x-api-key'] ?? h['x-goog-api-key'];
}

/** OpenAI echoes a masked key in its 401 message; so do we (tests check it is redacted). */
function masked(key: string | undefined): string {
  if (!key) return '';
  return key.length <= 8 ? '****' : `${key.slice(0, 4)}${'*'.repeat(key.length - 8)}${key.slice(-4)}`;
}

function successBody(
  wire: Wire,
  model: string,
  text: string,
  usage: { input: number; output: number; reasoning?: number },
  finish: 'stop' | 'length',
  id: number,
  thinking?: string,
): unknown {
  const reasoning = usage.reasoning ?? 0;
  switch (wire) {
    case 'openai':
      // completion_tokens includes the reasoning tokens; the details say how many of them.
      return {
        id: `chatcmpl-fake${id}`,
        object: 'chat.completion',
        created: 1_700_000_000 + id,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: finish }],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output + reasoning,
          total_tokens: usage.input + usage.output + reasoning,
          completion_tokens_details: { reasoning_tokens: reasoning },
        },
      };
    case 'anthropic':
      // output_tokens includes thinking; the thinking block comes first, with its signature.
      return {
        id: `msg_fake${id}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [...(thinking !== undefined ? [{ type: 'thinking', thinking, signature: `sig${id}` }] : []), { type: 'text', text }],
        stop_reason: finish === 'stop' ? 'end_turn' : 'max_tokens',
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output + reasoning },
      };
    case 'gemini':
      // thoughtsTokenCount is separate from candidatesTokenCount (both billed as output).
      return {
        candidates: [
          {
            content: { parts: [...(thinking !== undefined ? [{ text: thinking, thought: true }] : []), { text }], role: 'model' },
            finishReason: finish === 'stop' ? 'STOP' : 'MAX_TOKENS',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: usage.input,
          candidatesTokenCount: usage.output,
          ...(reasoning ? { thoughtsTokenCount: reasoning } : {}),
          totalTokenCount: usage.input + usage.output + reasoning,
        },
        modelVersion: model,
      };
  }
}

function argsObject(a: string | Readonly<Record<string, unknown>>): unknown {
  if (typeof a !== 'string') return a;
  try {
    return JSON.parse(a);
  } catch {
    return a;
  }
}

function toolsBody(wire: Wire, model: string, reply: Extract<FakeReply, { kind: 'tools' }>, usage: { input: number; output: number }, id: number): unknown {
  const calls = reply.calls;
  switch (wire) {
    case 'openai':
      return {
        id: `chatcmpl-fake${id}`,
        object: 'chat.completion',
        created: 1_700_000_000 + id,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply.text ?? null,
              refusal: null,
              tool_calls: calls.map((c, i) => ({ id: `call_${id}_${i}`, type: 'function', function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) } })),
            },
            logprobs: null,
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      };
    case 'anthropic':
      return {
        id: `msg_fake${id}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [
          ...(reply.thinking !== undefined ? [{ type: 'thinking', thinking: reply.thinking, signature: `sig${id}` }, { type: 'redacted_thinking', data: `redacted${id}` }] : []),
          ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
          ...calls.map((c, i) => ({ type: 'tool_use', id: `toolu_${id}_${i}`, name: c.name, input: argsObject(c.arguments) })),
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      };
    case 'gemini':
      return {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                ...(reply.thinking !== undefined ? [{ text: reply.thinking, thought: true }] : []),
                ...(reply.text ? [{ text: reply.text }] : []),
                ...calls.map((c, i) => ({ functionCall: { name: c.name, args: argsObject(c.arguments) }, thoughtSignature: `ts${id}_${i}` })),
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output },
        modelVersion: model,
      };
  }
}

/** What each provider (or a server in its format) says when the model takes no tools. */
function noToolsBody(wire: Wire, model: string): unknown {
  switch (wire) {
    case 'openai':
      // Ollama's words, in its OpenAI-compatible error body.
      return { error: { message: `registry.ollama.ai/library/${model} does not support tools`, type: 'api_error', param: null, code: null } };
    case 'anthropic':
      return { type: 'error', error: { type: 'invalid_request_error', message: `tool use is not supported for model ${model}` } };
    case 'gemini':
      return { error: { code: 400, message: `Function calling is not enabled for models/${model}`, status: 'INVALID_ARGUMENT' } };
  }
}

function refusalBody(wire: Wire, model: string, id: number): unknown {
  switch (wire) {
    case 'openai':
      return {
        id: `chatcmpl-fake${id}`,
        object: 'chat.completion',
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I can't help with that." }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 6, total_tokens: 16 },
      };
    case 'anthropic':
      return { id: `msg_fake${id}`, type: 'message', role: 'assistant', model, content: [], stop_reason: 'refusal', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 0 } };
    case 'gemini':
      return { candidates: [{ finishReason: 'SAFETY', index: 0 }], usageMetadata: { promptTokenCount: 10, totalTokenCount: 10 }, modelVersion: model };
  }
}

/** The sampling parameter a request sets, if any (for `rejectSampling`). */
function samplingSet(wire: Wire, body: any): string | undefined {
  const where = wire === 'gemini' ? body?.generationConfig : body;
  for (const k of wire === 'gemini' ? ['temperature', 'topP'] : ['temperature', 'top_p']) if (where?.[k] !== undefined) return k;
  return undefined;
}

function samplingRejected(wire: Wire, param: string): string {
  switch (wire) {
    case 'openai':
      return JSON.stringify({
        error: { message: `Unsupported value: '${param}' does not support 0 with this model. Only the default (1) value is supported.`, type: 'invalid_request_error', param, code: 'unsupported_value' },
      });
    case 'anthropic':
      return anthropicError('invalid_request_error', `${param} is not supported with this model`);
    case 'gemini':
      return JSON.stringify({ error: { code: 400, message: `${param} is not supported with this model.`, status: 'INVALID_ARGUMENT' } });
  }
}

function anthropicError(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message } });
}

type ErrorKind = 'rate-limit' | 'quota' | 'server-error' | 'auth' | 'unknown-model' | 'context-too-long';

function errorBody(wire: Wire, kind: ErrorKind, r: ReceivedRequest): { status: number; body: unknown } {
  const oa = (status: number, message: string, type: string, code: string | null) => ({
    status,
    body: { error: { message, type, param: null, code } },
  });
  const an = (status: number, type: string, message: string) => ({ status, body: { type: 'error', error: { type, message } } });
  const ge = (status: number, gstatus: string, message: string, details?: unknown[]) => ({
    status,
    body: { error: { code: status, message, status: gstatus, ...(details ? { details } : {}) } },
  });
  switch (wire) {
    case 'openai':
      switch (kind) {
        case 'auth':
          return oa(401, `Incorrect API key provided: ${masked(r.key)}. You can find your API key in your account settings.`, 'invalid_request_error', 'invalid_api_key');
        case 'unknown-model':
          return oa(404, `The model \`${r.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found');
        case 'context-too-long':
          return oa(400, "This model's maximum context length is 128000 tokens. However, your messages resulted in 210000 tokens. Please reduce the length of the messages.", 'invalid_request_error', 'context_length_exceeded');
        case 'rate-limit':
          return oa(429, `Rate limit reached for ${r.model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`, 'requests', 'rate_limit_exceeded');
        case 'quota':
          return oa(429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota');
        case 'server-error':
          return oa(500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null);
      }
      break;
    case 'anthropic':
      switch (kind) {
        case 'auth':
          return an(401, 'authentication_error', 'invalid x-api-key');
        case 'unknown-model':
          return an(404, 'not_found_error', `model: ${r.model}`);
        case 'context-too-long':
          return an(400, 'invalid_request_error', 'prompt is too long: 215000 tokens > 200000 maximum');
        case 'rate-limit':
          return an(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.');
        case 'quota':
          return an(400, 'invalid_request_error', 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.');
        case 'server-error':
          return an(500, 'api_error', 'Internal server error');
      }
      break;
    case 'gemini':
      switch (kind) {
        case 'auth':
          return ge(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
            { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
          ]);
        case 'unknown-model':
          return ge(404, 'NOT_FOUND', `models/${r.model} is not found for API version v1beta, or is not supported for generateContent.`);
        case 'context-too-long':
          return ge(400, 'INVALID_ARGUMENT', 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).');
        case 'rate-limit':
          return ge(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.', [
            { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }] },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' },
          ]);
        case 'quota':
          return ge(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.', [
            { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }] },
          ]);
        case 'server-error':
          return ge(500, 'INTERNAL', 'An internal error has occurred. Please retry or report in the troubleshooting guide.');
      }
  }
  throw new Error(`unreachable: ${wire} ${kind}`);
}
