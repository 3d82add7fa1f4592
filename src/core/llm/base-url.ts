/**
 * A provider's base URL: what may be one, and how an endpoint's path is
 * joined to it (docs/providers.md, "Base URLs"). A base URL is written into
 * the run's configuration, every attempt and every export, so it must hold
 * no secret: a user name and password (`http://user:pass@host`) or a key in
 * the query (`?api_key=...`) are refused, and keys travel only in the
 * provider's header. Any other query string (`?api-version=...`) is kept
 * and sent with every request; a fragment is refused, since it is never
 * sent and would otherwise end up inside the request's path.
 */

/** Query parameter names that say they carry a secret. */
const SECRET_PARAM = /key|token|secret|passw|auth|credential|signature|^sig$/i;

/** `url` with its user name and password hidden, for a message. */
function withoutCredentials(u: URL): string {
  return `${u.protocol}//***@${u.host}${u.pathname}`;
}

/** Why `url` cannot be a provider's base URL, in words; undefined when it can. */
export function baseUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url}" is not a URL: write it whole, e.g. https://api.openai.com/v1 or http://localhost:11434/v1`;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `a base URL starts with https:// or http://, not ${u.protocol}//`;
  if (!u.hostname) return `"${url}" names no host`;
  if (u.username || u.password) {
    return `a base URL must not hold a user name or password (${withoutCredentials(u)}): it is stored with the run and shown in reports. Remove the "user:password@" part; the key goes in the key field (browser) or OSVLAB_API_KEY (CLI)`;
  }
  if (url.includes('#')) return `a base URL has no fragment ("#${u.hash.slice(1)}"): a fragment is never sent to the server. Remove it`;
  for (const name of u.searchParams.keys()) {
    if (SECRET_PARAM.test(name)) {
      return `the base URL's query parameter "${name}" looks like a key: a base URL is stored with the run and shown in reports. Remove it; the key goes in the key field (browser) or OSVLAB_API_KEY (CLI), and is sent in the provider's header`;
    }
  }
  return undefined;
}

/** The base URL split at its query string: `path` has no trailing slash, `query` is "" or starts with "?". */
function split(baseUrl: string): { readonly path: string; readonly query: string } {
  const q = baseUrl.indexOf('?');
  const path = q < 0 ? baseUrl : baseUrl.slice(0, q);
  return { path: path.replace(/\/+$/, ''), query: q < 0 ? '' : baseUrl.slice(q) };
}

/** The base URL as the client uses and records it: no trailing slash on its path, its query kept. */
export function trimBaseUrl(baseUrl: string): string {
  const { path, query } = split(baseUrl);
  return `${path}${query}`;
}

/** `baseUrl` with `rest` ("/chat/completions") appended to its path, before its query string. */
export function endpointUrl(baseUrl: string, rest: string): string {
  const { path, query } = split(baseUrl);
  return `${path}${rest}${query}`;
}

/**
 * A base URL that is a bare host (`http://localhost:11434`, no path) with
 * `/v1` added: every OpenAI-compatible server (Ollama, LM Studio, vLLM,
 * llama.cpp) serves chat completions there, and nothing serves them at the
 * root.
 */
export function withApiPath(baseUrl: string): string {
  const { path, query } = split(baseUrl);
  return /^https?:\/\/[^/\s]+$/i.test(path) ? `${path}/v1${query}` : `${path}${query}`;
}
