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
export function glueUrl(): string {
  // The worker's own URL is <base>/assets/<chunk>.js in a build and
  // <base>/src/worker/... in dev; the base is what precedes those.
  const here = self.location.href;
  const cut = here.search(/\/(assets|src\/worker|@fs|node_modules)\//);
  const base = cut >= 0 ? here.slice(0, cut + 1) : new URL('./', here).href;
  return new URL('z3-built.js', base).href;
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
    return init({
      mainScriptUrlOrBlob: url,
      locateFile: (file: string) => new URL(file, url).href,
    } as never);
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}
