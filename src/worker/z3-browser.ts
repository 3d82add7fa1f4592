/**
 * Loads Z3 inside a module worker. Module workers have no `importScripts`, so
 * the Emscripten glue is fetched and run with an indirect eval, which defines
 * `initZ3` globally where z3-solver's browser entry looks for it.
 *
 * Both URL options matter: without `locateFile` the wasm is looked up next to
 * the bundle and 404s; without `mainScriptUrlOrBlob` the pthread workers Z3
 * spawns try to load `undefined`. Z3's threads need SharedArrayBuffer, hence a
 * cross-origin isolated page: without it `check()` fails with "thread
 * constructor failed".
 */
import { init } from 'z3-solver';

export type Z3Api = Awaited<ReturnType<typeof init>>;

let loading: Promise<Z3Api> | undefined;

/** Where the glue lives: public/z3-built.js, next to the built index.html. */
function glueUrl(): string {
  // The worker's own URL is <base>/assets/<chunk>.js in a build and
  // <base>/src/worker/... in dev; the base is what precedes those.
  const here = self.location.href;
  const cut = here.search(/\/(assets|src\/worker|@fs|node_modules)\//);
  const base = cut >= 0 ? here.slice(0, cut + 1) : new URL('./', here).href;
  return new URL('z3-built.js', base).href;
}

/** The cache public/sw.js serves from; the name must match CACHE there. */
const OFFLINE_CACHE = 'osvlab-v2';

async function fetchWasm(url: string): Promise<Blob> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Could not fetch the Z3 wasm from ${url} (HTTP ${res.status})`);
  // The type matters: WebAssembly's streaming compile insists on application/wasm.
  return new Blob([await res.arrayBuffer()], { type: 'application/wasm' });
}

/**
 * Puts the glue and wasm just downloaded into the service worker's cache, so
 * offline use does not cost a second 35 MB download when the service worker
 * precaches (the HTTP cache is often too small to hold the wasm).
 */
async function keepForOffline(glueUrl: string, glue: string, wasmUrl: string, wasm: Blob): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const cache = await caches.open(OFFLINE_CACHE);
    await cache.put(glueUrl, new Response(glue, { headers: { 'Content-Type': 'text/javascript' } }));
    await cache.put(wasmUrl, new Response(wasm, { headers: { 'Content-Type': 'application/wasm' } }));
  } catch {
    // Storage can be full or disabled; the app works without offline support.
  }
}

/** The initialised z3-solver API for this worker; loads it on first call. */
export function loadZ3(): Promise<Z3Api> {
  loading ??= (async () => {
    const url = glueUrl();
    const res = await fetch(url);
    if (!res.ok) throw new Error(`Could not fetch the Z3 glue from ${url} (HTTP ${res.status})`);
    const glue = await res.text();
    const g = self as unknown as Record<string, unknown>;
    // z3-solver's browser entry reads `global.initZ3`.
    g.global = self;
    // Indirect eval runs the glue at global scope, so its `var initZ3` becomes a global.
    (0, eval)(glue);
    if (typeof g.initZ3 !== 'function') throw new Error('The Z3 glue did not define initZ3');
    const wasmUrl = new URL('z3-built.wasm', url).href;
    const wasm = await fetchWasm(wasmUrl);
    void keepForOffline(url, glue, wasmUrl, wasm);
    const wasmBlobUrl = URL.createObjectURL(wasm);
    return init({
      mainScriptUrlOrBlob: url,
      locateFile: (file: string) => (file.endsWith('.wasm') ? wasmBlobUrl : new URL(file, url).href),
    } as never);
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}
