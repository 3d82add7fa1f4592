/**
 * Loads Z3 inside a module worker. Module workers have no `importScripts`, so
 * the Emscripten glue is fetched and run with an indirect eval, which defines
 * `initZ3` globally where z3-solver's browser entry looks for it.
 *
 * Both URL options matter: without `locateFile` the wasm is looked up next to
 * the bundle and 404s; without `mainScriptUrlOrBlob` the pthread workers Z3
 * spawns try to load `undefined`. Z3's threads need a WebAssembly memory shared
 * with the workers they run in, hence a cross-origin isolated page and an
 * engine that can send shared memories (WebKitGTK cannot): without it
 * `check()` fails with "thread constructor failed", so the loader says so
 * first (src/worker/z3-obstacle.ts).
 *
 * The memory is reserved here, the largest size the device grants
 * (src/worker/z3-memory.ts), and the wasm fetched is the copy whose memory
 * import has that size.
 */
import { init } from 'z3-solver';
import { parseZ3Memory, reserveLargest, sizesToTry, Z3_MEMORY_MIB, type Z3MemoryMiB, z3WasmFile } from './z3-memory.ts';
import type { Z3LoadSteps } from '../core/pool/contract.ts';
import { browserName, canShareMemory, obstacleSentence } from './z3-obstacle.ts';

export type Z3Api = Awaited<ReturnType<typeof init>>;

let loading: Promise<Z3Api> | undefined;

/** Milliseconds since this worker's start, as finely as it measures. */
const clock = () => performance.now();

/** The last lines Z3's glue printed to stderr (a failed pthread says its file, line and message there). */
const printed: string[] = [];

/** What Z3's glue printed last, for a crash report (src/worker/crash-report.ts). */
export function z3LastWords(): string | undefined {
  return printed.length ? printed.slice(-2).join(' / ') : undefined;
}

function printErr(text: string): void {
  printed.push(text);
  if (printed.length > 8) printed.shift();
  console.error(text);
}

/** Where the glue lives: public/z3-built.js, next to the built index.html. */
function glueUrl(): string {
  // The worker's own URL is <base>/assets/<chunk>.js in a build and
  // <base>/src/worker/... in dev; the base is what precedes those.
  const here = self.location.href;
  const cut = here.search(/\/(assets|src\/worker|@fs|node_modules)\//);
  const base = cut >= 0 ? here.slice(0, cut + 1) : new URL('./', here).href;
  return new URL('z3-built.js', base).href;
}

/** The headers that make a page cross-origin isolated, as public/sw.js adds them (docs/app.md, "Cross-origin isolation and offline use"). */
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'same-origin' };

/** The cache public/sw.js serves from; the name must match CACHE there. */
const OFFLINE_CACHE = 'osvlab-v2';

/** fetch(), whose network failure ("Failed to fetch", "Load failed", ...) names what it was fetching. */
async function fetchOrSay(url: string, what: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (e) {
    throw new Error(`Could not fetch ${what} from ${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Downloads Z3's wasm and compiles it as the bytes arrive. Compiling from the
 * response, rather than from a finished download (or a Blob fetched again),
 * overlaps the two; in WebKitGTK the download alone took about 6 s and the
 * compile 8 s of a 17 s load (docs/app.md, "Browser support"). Resolves with
 * the module and a copy of the response for the offline cache.
 */
async function compileWasm(url: string): Promise<{ module: WebAssembly.Module; copy: Response }> {
  const res = await fetchOrSay(url, 'the Z3 wasm');
  if (!res.ok) throw new Error(`Could not fetch the Z3 wasm from ${url} (HTTP ${res.status})`);
  const copy = res.clone();
  // Streaming compilation insists on the wasm's media type; a host that sends another one gets a plain compile.
  const streamable = typeof WebAssembly.compileStreaming === 'function' && (res.headers.get('Content-Type') ?? '').startsWith('application/wasm');
  const module = streamable ? await WebAssembly.compileStreaming(res) : await WebAssembly.compile(await res.arrayBuffer());
  return { module, copy };
}

/**
 * Puts the glue and the wasm just downloaded into the service worker's cache,
 * so offline use does not cost a second 35 MB download when the service worker
 * precaches (the HTTP cache is often too small to hold the wasm). The wasm of
 * another memory size, kept from an earlier visit, goes: only the size in use
 * is kept.
 */
async function keepForOffline(glueUrl: string, glue: string, wasmUrl: string, wasm: Response): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const cache = await caches.open(OFFLINE_CACHE);
    await cache.put(glueUrl, new Response(glue, { headers: { 'Content-Type': 'text/javascript' } }));
    // The media type matters: streaming compilation of the cached copy insists on application/wasm. With the
    // isolation headers public/sw.js serves the cached response itself instead of a copy it makes to add them.
    await cache.put(wasmUrl, new Response(wasm.body, { headers: { 'Content-Type': 'application/wasm', ...ISOLATION } }));
    for (const mib of Z3_MEMORY_MIB) {
      const other = new URL(z3WasmFile(mib), glueUrl).href;
      if (other !== wasmUrl) await cache.delete(other, { ignoreSearch: true });
    }
  } catch {
    // Storage can be full or disabled; the app works without offline support.
  }
}

/** The memory size this worker was asked to stay within (the page passes a setting in the worker's name: "... z3-memory=512"). */
function memoryCap(): Z3MemoryMiB | undefined {
  return parseZ3Memory(/\bz3-memory=(\S+)/.exec(self.name)?.[1]);
}

/**
 * Whether Z3 should start threads of its own: the page's `z3-threads` setting
 * if it has one (src/worker/web-pool.ts), else yes where memory can be shared,
 * except in Firefox. There a check on Z3's threads now and then never answers
 * until the pool's hard limit stops the worker, while the same checks in the
 * worker's one thread do not stall and are as fast (docs/app.md, "Browser
 * support", measured by perf/z3-threads.ts). No feature tells the stall
 * apart, so the engine is named.
 */
function wantThreads(): boolean {
  const asked = /\bz3-threads=([01])\b/.exec(self.name)?.[1];
  if (asked !== undefined) return asked === '1' && canShareMemory();
  return canShareMemory() && !/\bFirefox\//.test(self.navigator.userAgent);
}

/** What the loaded Z3 runs in, for the About page. */
export interface Z3Memory {
  readonly mib: Z3MemoryMiB;
  /** The size was capped by a setting rather than by what the device granted. */
  readonly capped: boolean;
  /** Z3 starts threads of its own (false: it runs in the worker's one thread, see `oneThread`). */
  readonly threads: boolean;
}

/**
 * Z3 in the worker's own thread, for engines that cannot share memory with
 * workers (WebKitGTK). z3-solver runs every check on a thread of its own and
 * Z3 enforces a query's timeout with a timer thread; neither can start here.
 * So a check calls Z3's synchronous entry point (the worker blocks, which a
 * worker may), and the timeout parameter is left unset: a query that runs
 * too long is stopped by the pool's hard limit, which terminates the worker
 * (the verdict is then a timeout). Verdicts are otherwise the same.
 */
function oneThread(z3: Z3Api): Z3Api {
  const em = z3.em as { _Z3_solver_check(c: unknown, s: unknown): number };
  const api = z3.Z3;
  const Z3: typeof api = {
    ...api,
    solver_check: async (c, s) => em._Z3_solver_check(c, s),
    params_set_uint: (c, p, k, v) => {
      if (api.get_symbol_string(c, k) !== 'timeout') api.params_set_uint(c, p, k, v);
    },
  };
  return { ...z3, Z3 };
}

let memoryInUse: Z3Memory | undefined;
let stepsTaken: Z3LoadSteps | undefined;

/** How long loading Z3 took this worker, step by step, once loaded (About, perf/app-load.ts). */
export function z3LoadSteps(): Z3LoadSteps | undefined {
  return stepsTaken;
}

/** When the wasm's last byte arrived (ms since the worker's start) and whether it came from a cache, as Resource Timing saw it. */
function wasmArrival(url: string): { end?: number; cached?: boolean } {
  const entry = performance.getEntriesByName?.(url).at(-1) as PerformanceResourceTiming | undefined;
  if (!entry || !(entry.responseEnd > 0)) return {};
  // A transfer of no bytes with a body is a cache hit (the HTTP cache, or the service worker's cache); engines that hide the sizes say nothing.
  return { end: entry.responseEnd, ...(entry.decodedBodySize > 0 ? { cached: entry.transferSize === 0 } : {}) };
}

/** The memory of this worker's Z3, once loaded. */
export function z3Memory(): Z3Memory | undefined {
  return memoryInUse;
}

/** Z3 cannot run in this browser; the message is the sentence to show (src/worker/z3-obstacle.ts). */
class Z3UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Z3UnavailableError';
  }
}

/** The initialised z3-solver API for this worker; loads it on first call. */
export function loadZ3(): Promise<Z3Api> {
  loading ??= (async () => {
    const browser = browserName(self.navigator.userAgent);
    if (typeof WebAssembly !== 'object') throw new Z3UnavailableError(obstacleSentence('no-wasm', browser, 0));
    // Without a memory to share with workers (WebKitGTK), Z3 runs in this worker's one thread.
    const threads = wantThreads();
    // The largest memory the device grants (docs/app.md, "Z3's memory"), reserved once and handed to the glue.
    const cap = memoryCap();
    const sizes = sizesToTry(cap);
    let refusal: unknown;
    const reserved = reserveLargest(sizes, (pages) => {
      try {
        return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
      } catch (e) {
        refusal = e;
        throw e;
      }
    });
    if (!reserved) {
      // A TypeError: no shared memories at all; a RangeError: not even the smallest size.
      const why = refusal instanceof RangeError ? 'too-little-memory' : 'no-shared-memory';
      throw new Z3UnavailableError(obstacleSentence(why, browser, sizes[sizes.length - 1]));
    }
    const t0 = clock();
    const url = glueUrl();
    // One URL per memory size, so each is cached on its own; it downloads and compiles while the glue loads.
    const wasmUrl = new URL(z3WasmFile(reserved.mib), url).href;
    const compiling = compileWasm(wasmUrl);
    compiling.catch(() => undefined);
    const res = await fetchOrSay(url, 'the Z3 glue');
    if (!res.ok) throw new Error(`Could not fetch the Z3 glue from ${url} (HTTP ${res.status})`);
    const glue = await res.text();
    const g = self as unknown as Record<string, unknown>;
    // z3-solver's browser entry reads `global.initZ3`.
    g.global = self;
    // Indirect eval runs the glue at global scope, so its `var initZ3` becomes a global.
    (0, eval)(glue);
    if (typeof g.initZ3 !== 'function') throw new Error('The Z3 glue did not define initZ3');
    const { module, copy } = await compiling;
    const compiled = clock();
    void keepForOffline(url, glue, wasmUrl, copy);
    // The glue instantiates the module compiled above through this hook (and hands it to its pthread workers).
    // The hook must answer later, not within the call; a failure there would otherwise leave init() waiting forever.
    let instantiationFailed!: (e: unknown) => void;
    const failure = new Promise<never>((_, reject) => (instantiationFailed = reject));
    let instantiated = 0;
    const instantiateWasm = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
      const i0 = clock();
      WebAssembly.instantiate(module, imports).then((instance) => {
        instantiated = clock() - i0;
        done(instance, module);
      }, instantiationFailed);
      return {};
    };
    const z3 = await Promise.race([init({ printErr, wasmMemory: reserved.memory, mainScriptUrlOrBlob: url, locateFile: (file: string) => new URL(file, url).href, instantiateWasm } as never), failure]);
    memoryInUse = { mib: reserved.mib, capped: cap !== undefined, threads };
    const arrival = wasmArrival(wasmUrl);
    const ms = (x: number) => Math.round(x);
    stepsTaken = {
      began: Math.round(performance.timeOrigin + t0),
      ...(arrival.end !== undefined ? { download: ms(arrival.end - t0) } : {}),
      compile: ms(compiled - t0),
      instantiate: ms(instantiated),
      start: ms(clock() - compiled - instantiated),
      ...(arrival.cached !== undefined ? { cached: arrival.cached } : {}),
      threadsGetModule: threads,
    };
    return threads ? z3 : oneThread(z3);
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}
