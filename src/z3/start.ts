/**
 * The first step of loading Z3 in a verifier worker, kept apart from the
 * rest (src/z3/browser.ts takes it as soon as the page asks for Z3, before
 * z3-solver's API has downloaded; docs/app.md, "Loading Z3"): reserve Z3's
 * memory, then start downloading and compiling the wasm of that size and
 * downloading the glue. Nothing here imports z3-solver or the core;
 * src/z3/browser.ts finishes the load from what this began.
 *
 * The memory is the largest size the device grants (src/z3/memory.ts),
 * reserved once per worker; the one wasm links to a memory of any of those
 * sizes, so every size fetches (and caches) the same URL.
 */
import { browserName, obstacleSentence } from './obstacle.ts';
import { Z3_WASM_FILE, parseZ3Memory, reserveLargest, sizesToTry, type Z3MemoryMiB } from './memory.ts';
import { Z3UnavailableError } from './unavailable.ts';

/** Milliseconds since this worker's start, as finely as it measures. */
export const clock = () => performance.now();

/** A load of Z3 under way: its memory, its URLs, and the downloads in flight. */
export interface Z3Start {
  readonly memory: WebAssembly.Memory;
  readonly mib: Z3MemoryMiB;
  /** The size was capped by a setting rather than by what the device granted. */
  readonly capped: boolean;
  readonly glueUrl: string;
  readonly wasmUrl: string;
  /** When the downloads began (`clock()`). */
  readonly began: number;
  /** The compiled module, when it was ready (`clock()`), and a copy of the response for the offline cache. */
  readonly wasm: Promise<{ readonly module: WebAssembly.Module; readonly copy: Response; readonly at: number }>;
  readonly glue: Promise<string>;
}

/** Where the glue lives: public/z3-built.js, next to the built index.html. */
function glueUrlHere(): string {
  // The worker's own URL is <base>/assets/<chunk>.js in a build and
  // <base>/src/worker/... in dev; the base is what precedes those.
  const here = self.location.href;
  const cut = here.search(/\/(assets|src\/worker|@fs|node_modules)\//);
  const base = cut >= 0 ? here.slice(0, cut + 1) : new URL('./', here).href;
  return new URL('z3-built.js', base).href;
}

/** fetch(), whose network failure ("Failed to fetch", "Load failed", ...) names what it was fetching. */
async function fetchOrSay(url: string, what: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`Could not fetch ${what} from ${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!res.ok) throw new Error(`Could not fetch ${what} from ${url} (HTTP ${res.status})`);
  return res;
}

/**
 * Downloads Z3's wasm and compiles it as the bytes arrive. Compiling from the
 * response, rather than from a finished download (or a Blob fetched again),
 * overlaps the two; in WebKitGTK the download alone took about 6 s and the
 * compile 8 s of a 17 s load (docs/measurements.md, "Where WebKitGTK's time
 * went"). Resolves with
 * the module and a copy of the response for the offline cache.
 */
async function compileWasm(url: string): Promise<{ module: WebAssembly.Module; copy: Response; at: number }> {
  const res = await fetchOrSay(url, 'the Z3 wasm');
  const copy = res.clone();
  // Streaming compilation insists on the wasm's media type; a host that sends another one gets a plain compile.
  const streamable = typeof WebAssembly.compileStreaming === 'function' && (res.headers.get('Content-Type') ?? '').startsWith('application/wasm');
  const module = streamable ? await WebAssembly.compileStreaming(res) : await WebAssembly.compile(await res.arrayBuffer());
  return { module, copy, at: clock() };
}

/** The memory size this worker was asked to stay within (the page passes a setting in the worker's name: "... z3-memory=512"). */
function memoryCap(): Z3MemoryMiB | undefined {
  return parseZ3Memory(/\bz3-memory=(\S+)/.exec(self.name)?.[1]);
}

let reserved: { readonly mib: Z3MemoryMiB; readonly memory: WebAssembly.Memory } | undefined;
let started: Z3Start | undefined;

/** Reserves the largest memory the device grants, once per worker; throws Z3UnavailableError when it grants none. */
function reserve(): { readonly mib: Z3MemoryMiB; readonly memory: WebAssembly.Memory } {
  if (reserved) return reserved;
  const browser = browserName(self.navigator.userAgent);
  if (typeof WebAssembly !== 'object') throw new Z3UnavailableError(obstacleSentence('no-wasm', browser, 0));
  const sizes = sizesToTry(memoryCap());
  let refusal: unknown;
  reserved = reserveLargest(sizes, (pages) => {
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
  return reserved;
}

/**
 * Starts loading Z3, or returns the load already started (until
 * `forgetZ3Start`). Throws Z3UnavailableError when this browser cannot run Z3.
 */
export function startZ3(): Z3Start {
  if (started) return started;
  const { mib, memory } = reserve();
  const glueUrl = glueUrlHere();
  // One URL for every memory size: its compiled code, in Chromium's cache, serves them all.
  const wasmUrl = new URL(Z3_WASM_FILE, glueUrl).href;
  const began = clock();
  const wasm = compileWasm(wasmUrl);
  const glue = fetchOrSay(glueUrl, 'the Z3 glue').then((res) => res.text());
  // A failure is the load's to report when it is awaited (src/z3/browser.ts), not an unhandled rejection before.
  wasm.catch(() => undefined);
  glue.catch(() => undefined);
  started = { memory, mib, capped: memoryCap() !== undefined, glueUrl, wasmUrl, began, wasm, glue };
  return started;
}

/** After a load failed: the next `startZ3` downloads again (into the memory already reserved). */
export function forgetZ3Start(): void {
  started = undefined;
}
