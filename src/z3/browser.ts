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
 * first (src/z3/obstacle.ts).
 *
 * The memory reservation and the downloads are begun by src/z3/start.ts,
 * when the page first asks for Z3; this finishes the load from them.
 * z3-solver's API (about 300 kB of script before minifying) is imported here
 * when Z3 loads, not with the worker's code: a verdict that needs no query
 * does not wait for it.
 */
import type { init } from 'z3-solver';
import { CPP_THROW_FLAG } from './wasm-invoke.ts';
import type { Z3MemoryMiB } from './memory.ts';
import type { Z3LoadSteps } from '../core/service/contract.ts';
import { clock, forgetZ3Start, startZ3 } from './start.ts';
import { makeThreadWorkersAhead, threadsByDefault, wantThreads } from './threads.ts';

export type Z3Api = Awaited<ReturnType<typeof init>>;

let loading: Promise<Z3Api> | undefined;

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

/** The headers that make a page cross-origin isolated, as public/sw.js adds them (docs/app.md, "Cross-origin isolation and offline use"). */
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'same-origin' };

/** The cache public/sw.js serves from; the name must match CACHE there. */
const OFFLINE_CACHE = 'osvlab-v4';

/**
 * Puts the glue and the wasm just downloaded into the service worker's cache,
 * so offline use does not cost a second 35 MB download when the service worker
 * precaches (the HTTP cache is often too small to hold the wasm). One wasm
 * serves every memory size, so the copy kept serves the device whatever it
 * grants on a later visit.
 */
async function keepForOffline(glueUrl: string, glue: string, wasmUrl: string, wasm: Response): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const cache = await caches.open(OFFLINE_CACHE);
    await cache.put(glueUrl, new Response(glue, { headers: { 'Content-Type': 'text/javascript' } }));
    // The media type matters: streaming compilation of the cached copy insists on application/wasm. With the
    // isolation headers public/sw.js serves the cached response itself instead of a copy it makes to add them.
    await cache.put(wasmUrl, new Response(wasm.body, { headers: { 'Content-Type': 'application/wasm', ...ISOLATION } }));
  } catch {
    // Storage can be full or disabled; the app works without offline support.
  }
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

/** The initialised z3-solver API for this worker; loads it on first call (throws Z3UnavailableError, src/z3/unavailable.ts, where it cannot run). */
export function loadZ3(): Promise<Z3Api> {
  loading ??= (async () => {
    // Without a memory to share with workers (WebKitGTK), Z3 runs in this worker's one thread.
    const threads = wantThreads();
    // The downloads begin now, before z3-solver's API is imported (src/z3/start.ts).
    const load = startZ3();
    const url = load.glueUrl;
    const api = import('z3-solver');
    api.catch(() => undefined);
    const glue = await load.glue;
    // The workers of Z3's first threads start now, while the wasm compiles, rather than in the warm-up (src/z3/threads.ts).
    if (threads && threadsByDefault()) makeThreadWorkersAhead(url);
    const g = self as unknown as Record<string, unknown>;
    // z3-solver's browser entry reads `global.initZ3`.
    g.global = self;
    // Indirect eval runs the glue at global scope, so its `var initZ3` becomes a global.
    (0, eval)(glue);
    if (typeof g.initZ3 !== 'function') throw new Error('The Z3 glue did not define initZ3');
    const { module, copy, at: compiled } = await load.wasm;
    // A wasm whose exception trampolines need the glue's flag (src/z3/wasm-invoke.ts) runs only with a glue that sets it.
    if (WebAssembly.Module.exports(module).some((e) => e.name === CPP_THROW_FLAG) && !glue.includes(CPP_THROW_FLAG)) {
      throw new Error("Z3's glue and wasm come from two different builds of OSVLab (the site was updated while this page loaded it): reload the page.");
    }
    void keepForOffline(url, glue, load.wasmUrl, copy);
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
    const { init } = await api;
    // Z3's start is timed from here, with the glue run and the module compiled.
    const from = clock();
    const z3 = await Promise.race([init({ printErr, wasmMemory: load.memory, mainScriptUrlOrBlob: url, locateFile: (file: string) => new URL(file, url).href, instantiateWasm } as never), failure]);
    memoryInUse = { mib: load.mib, capped: load.capped, threads };
    const t0 = load.began;
    const arrival = wasmArrival(load.wasmUrl);
    const ms = (x: number) => Math.round(x);
    stepsTaken = {
      began: Math.round(performance.timeOrigin + t0),
      ...(arrival.end !== undefined ? { download: ms(arrival.end - t0) } : {}),
      compile: ms(compiled - t0),
      instantiate: ms(instantiated),
      start: ms(clock() - from - instantiated),
      ...(arrival.cached !== undefined ? { cached: arrival.cached } : {}),
      threadsGetModule: threads,
    };
    return threads ? z3 : oneThread(z3);
  })();
  loading.catch(() => {
    loading = undefined;
    forgetZ3Start();
  });
  return loading;
}
