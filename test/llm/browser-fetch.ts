/**
 * A stand-in for a browser's fetch in Node: the CORS checks a page at
 * `origin` would get (preflight for JSON POSTs, Access-Control-Allow-Origin
 * on the answer), and the browser's opaque, cause-less failures: every
 * refusal or dead server is just TypeError("Failed to fetch"). `no-cors`
 * requests succeed with an opaque response whenever the server answers.
 */
export function browserFetch(origin: string) {
  const fail = () => new TypeError('Failed to fetch');
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const method = init.method ?? 'GET';
    const headers = (init.headers ?? {}) as Record<string, string>;
    if (init.mode === 'no-cors') {
      try {
        await fetch(url, { method: 'GET', signal: init.signal });
      } catch {
        throw fail();
      }
      return new Response(null, { status: 200 }); // stands in for the opaque (status 0) response
    }
    const names = Object.keys(headers).map((h) => h.toLowerCase()).sort();
    let pre: Response;
    try {
      pre = await fetch(url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': names.join(',') },
        signal: init.signal,
      });
    } catch {
      throw fail();
    }
    const allowOrigin = pre.headers.get('access-control-allow-origin');
    const allowHeaders = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    if (!pre.ok || (allowOrigin !== '*' && allowOrigin !== origin)) throw fail();
    if (!allowHeaders.includes('*') && names.some((n) => !allowHeaders.includes(n))) throw fail();
    let res: Response;
    try {
      res = await fetch(url, { ...init, headers: { ...headers, origin } });
    } catch (e) {
      if (init.signal?.aborted) throw e;
      throw fail();
    }
    const aco = res.headers.get('access-control-allow-origin');
    if (aco !== '*' && aco !== origin) throw fail();
    return res;
  };
}
