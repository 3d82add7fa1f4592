/**
 * Node's adapter for loading Z3, and our engine over it. The glue and the
 * wasm are z3-solver's as we run them (src/z3/build.ts: the glue's patch, the
 * exception trampolines moved into the wasm, the linker's padding out of its
 * code), as the site's are: written once to a directory
 * of their own under the system's temporary directory (Z3's pthread workers
 * load the glue by its file name). Glue the patch does not fit is loaded as
 * it ships, with the wasm as it ships.
 *
 * OSVLAB_Z3_MEMORY=<MiB> (1024, 512 or 256) runs Z3 in that much memory: our
 * wasm's memory import admits every size, as the site's does
 * (src/z3/wasm-memory.ts; docs/app.md, "Z3's memory"), and the glue is
 * told the size to make: the same solver in the memory a phone grants, for
 * tests and measurements.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type MessagePort, isMainThread, threadId, workerData } from 'node:worker_threads';
import type { Z3_context, Z3_solver, init } from 'z3-solver';
import { type SmtEngine, createEngine, warmUp } from '../core/smt/solver.ts';
import { VerifierCaches, type VerifyEnv } from '../core/verify/index.ts';
import { runnableWasm } from './build.ts';
import { WasmFormatError } from './wasm-binary.ts';
import { TRAMPOLINES_FORMAT } from './wasm-invoke.ts';
import { WASM_PAGE, importAdmits, readMemoryImport } from './wasm-memory.ts';
import { fastGlue } from './glue.ts';
import { FULL_MEMORY_MIB, LEAST_MEMORY_MIB, type Z3MemoryMiB, pagesOf, parseZ3Memory, withEveryZ3Memory } from './memory.ts';

type Z3 = Awaited<ReturnType<typeof init>>;

const require = createRequire(import.meta.url);

let module: Promise<Z3> | undefined;
let engine: Promise<SmtEngine> | undefined;

/** z3-solver's own glue; its wasm is next to it. */
const SHIPPED = require.resolve('z3-solver/build/z3-built.js');
const SHIPPED_WASM = join(dirname(SHIPPED), 'z3-built.wasm');

/** The files Z3 is loaded from: the glue and the wasm, and whether they are ours (patched) or as shipped. */
export interface Z3Files {
  readonly glue: string;
  readonly wasm: string;
  readonly patched: boolean;
}

/** Writes `make()` to `file` unless it is there, by an atomic rename (several processes may start at once). */
function writeOnce(file: string, make: () => string | Uint8Array): void {
  if (existsSync(file)) return;
  mkdirSync(dirname(file), { recursive: true });
  const part = `${file}.${process.pid}.${threadId}.part`;
  writeFileSync(part, make());
  renameSync(part, file);
}

let files: Z3Files | undefined;

/**
 * The glue and wasm to load: our copies (made if missing), or the package's
 * own. The directory is named by a hash of the patched glue, of the shipped
 * wasm's size and time, of the trampolines' format, of the memory sizes and the compaction,
 * so an upgrade of z3-solver or of the rewrite gets new copies.
 */
export function z3Files(): Z3Files {
  if (files) return files;
  const { text, patched } = fastGlue(readFileSync(SHIPPED, 'utf8'));
  const shipped: Z3Files = { glue: SHIPPED, wasm: SHIPPED_WASM, patched: false };
  if (!patched) return (files = shipped);
  const wasmStat = statSync(SHIPPED_WASM);
  const memory = `${LEAST_MEMORY_MIB}-${FULL_MEMORY_MIB} compact`;
  const key = createHash('sha256').update(`${text}\0${wasmStat.size}\0${wasmStat.mtimeMs}\0${TRAMPOLINES_FORMAT}\0${memory}`).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `osvlab-z3-${key}`);
  const ours: Z3Files = { glue: join(dir, 'z3-built.js'), wasm: join(dir, 'z3-built.wasm'), patched: true };
  try {
    writeOnce(ours.wasm, () => runnableWasm(readFileSync(SHIPPED_WASM)));
    writeOnce(ours.glue, () => text);
  } catch (e) {
    // No writable temporary directory (or a wasm the rewrite cannot read): Z3 as it ships is only slower.
    if (!(e instanceof WasmFormatError) && !(e instanceof Error && 'code' in e)) throw e;
    return (files = shipped);
  }
  return (files = ours);
}

/** The memory Z3 runs in here: OSVLAB_Z3_MEMORY's size, or the 2 GiB the wasm ships with. */
export function nodeZ3MemoryMiB(): Z3MemoryMiB {
  const asked = process.env.OSVLAB_Z3_MEMORY;
  if (asked === undefined || asked === '') return FULL_MEMORY_MIB;
  const mib = parseZ3Memory(asked);
  if (mib === undefined) throw new Error(`OSVLAB_Z3_MEMORY=${asked} is not one of Z3's memory sizes (2048, 1024, 512, 256)`);
  return mib;
}

/** The wasm's bytes for a memory size: our copy admits every size; the package's own (2 GiB only) gets the same import. */
function wasmBytes(mib: Z3MemoryMiB): Uint8Array<ArrayBuffer> {
  const bytes = readFileSync(z3Files().wasm);
  return importAdmits(readMemoryImport(bytes), pagesOf(mib)) ? bytes : withEveryZ3Memory(bytes);
}

let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * Z3's wasm compiled once for the process, for its worker threads
 * (node-pool.ts posts it to each): they share V8's compiled code, so a
 * worker neither validates the 35 MB again nor compiles again the functions
 * another worker already ran (V8 compiles a wasm function on its first call,
 * and again, optimised, once it is hot).
 */
export function compiledZ3(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compile(wasmBytes(nodeZ3MemoryMiB()));
  return compiled;
}

/** The compiled wasm the thread that started this one posts (workerThread in node-pool.ts), if it does. */
function postedModule(): Promise<WebAssembly.Module | undefined> {
  const port = (workerData as { readonly z3Module?: MessagePort } | null)?.z3Module;
  if (!port) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    port.once('message', (m: unknown) => {
      port.close();
      resolve(m instanceof WebAssembly.Module ? m : undefined);
    });
  });
}

async function load(): Promise<Z3> {
  const { glue } = z3Files();
  const mib = nodeZ3MemoryMiB();
  // The module another thread compiled and posted, or this process's own.
  const module = (await postedModule()) ?? (await compiledZ3());
  const wasm = {
    // A smaller memory: the glue told the size it makes (the wasm's import admits every size).
    ...(mib === FULL_MEMORY_MIB ? {} : { INITIAL_MEMORY: pagesOf(mib) * WASM_PAGE }),
    // The glue's own hook for a module compiled elsewhere; its pthreads get the same module.
    instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
      void WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
  };
  // What z3-solver's own Node entry does, with our glue: the low-level API over the module, then the high-level one.
  const lowLevel = await (require('z3-solver/build/low-level') as { init: (m: unknown, o: unknown) => Promise<{ Z3: unknown; em: unknown }> }).init(require(glue), {
    locateFile: (name: string) => join(dirname(z3Files().wasm), name),
    // The glue writes its messages to file descriptor 2 directly, past a worker thread's stderr stream and
    // so past its filter (node-pool.ts): through the stream, an abort's report is dropped there like a Z3 thread's.
    ...(isMainThread ? {} : { printErr: (...args: unknown[]) => process.stderr.write(`${args.join(' ')}\n`) }),
    ...wasm,
  });
  const { createApi } = require('z3-solver/build/high-level') as { createApi: (z3: unknown, em: unknown) => object };
  return { ...lowLevel, ...createApi(lowLevel.Z3, lowLevel.em) } as Z3;
}

/** The process-wide z3-solver module, loaded on first use (one WASM instance and thread pool per process). */
export function nodeZ3(): Promise<Z3> {
  module ??= load();
  return module;
}

/**
 * The highest byte of Z3's memory ever written, rounded up to a 64 KiB page:
 * the memory starts zeroed and the allocator only moves its break up, so the
 * last page that is not all zeros bounds the peak of what Z3 used (its static
 * data, stacks and heap). For measurements (perf/z3-memory.ts).
 */
export async function z3HighWaterBytes(): Promise<number> {
  const heap = ((await nodeZ3()).em as { HEAPU8: Uint8Array }).HEAPU8;
  const words = new BigUint64Array(heap.buffer, heap.byteOffset, Math.floor(heap.byteLength / 8));
  const perPage = WASM_PAGE / 8;
  for (let page = Math.floor(words.length / perPage) - 1; page >= 0; page--) {
    for (let i = page * perPage + perPage - 1; i >= page * perPage; i--) if (words[i] !== 0n) return (page + 1) * WASM_PAGE;
  }
  return 0;
}

/**
 * z3-solver with its checks run in the calling thread. z3-solver runs every
 * check on a thread it starts for that check and resolves a promise when the
 * thread posts back; grading makes one or more small queries per answer, and
 * the thread's start and the round trip through the event loop cost about 6%
 * of the checks' CPU (perf/check-thread.ts; docs/measurements.md, "Grading
 * throughput and the page against the CLI"). Here the calling
 * thread is a verifier worker (node-pool.ts), or a CLI command's own thread,
 * neither of which has anything else to do while Z3 searches, so it calls
 * Z3's synchronous entry point and blocks. Z3 still stops a query at its
 * timeout (its timer thread sets the same flag `interrupt` does); a check
 * that does not stop is ended by the pool's hard limit, which terminates the
 * worker, where the engine's watchdog (core/smt/solver.ts) cannot run.
 *
 * A check that aborts (Z3's heap is full: "Cannot enlarge memory arrays")
 * throws here, in this thread, and leaves the runtime dead with its
 * allocator's lock still held: any later call into Z3, such as the engine
 * freeing the query's solver, would wait on that lock for ever. So the
 * check never settles and the error is thrown again outside every caller,
 * uncaught, which ends the worker thread with the abort's message, as a Z3
 * thread's abort did before (the pool reads RES001 from it,
 * core/service/exhaustion.ts).
 */
export function inThreadChecks(z3: Z3, fatal: (e: unknown) => void = rethrowUncaught): Z3 {
  const em = z3.em as { _Z3_solver_check(c: Z3_context, s: Z3_solver): number };
  const api = z3.Z3;
  const solver_check = (c: Z3_context, s: Z3_solver): Promise<number> => {
    try {
      return Promise.resolve(em._Z3_solver_check(c, s));
    } catch (e) {
      fatal(e);
      return new Promise<never>(() => undefined);
    }
  };
  return { ...z3, Z3: { ...api, solver_check } };
}

function rethrowUncaught(e: unknown): void {
  setImmediate(() => {
    throw e;
  });
}

/** The process-wide engine, initialised (and its threads started) on first use. */
export function nodeEngine(): Promise<SmtEngine> {
  engine ??= nodeZ3().then(async (z3) => {
    const e = createEngine(inThreadChecks(z3));
    await warmUp(e);
    return e;
  });
  return engine;
}

let caches: VerifierCaches | undefined;

/** The process's verifier caches: a CLI process (or a test file) is one worker, built once. */
export function nodeCaches(): VerifierCaches {
  caches ??= new VerifierCaches();
  return caches;
}

/** The process's verify environment: its engine and its caches. */
export async function nodeEnv(): Promise<VerifyEnv> {
  return { engine: await nodeEngine(), caches: nodeCaches() };
}
