/**
 * Loads Z3 in Node and wraps it in our engine. The glue is z3-solver's with
 * one debugging check taken off its hottest path (worker/z3-glue.ts): written
 * once to a file of its own under the system's temporary directory (Z3's
 * pthread workers load the glue by its file name), the wasm still read from
 * the package. Glue the patch does not fit is loaded as it ships.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { init } from 'z3-solver';
import { type SmtEngine, createEngine, warmUp } from '../core/smt/solver.ts';
import { VerifierCaches, type VerifyEnv } from '../core/verify/index.ts';
import { fastGlue } from '../worker/z3-glue.ts';

type Z3 = Awaited<ReturnType<typeof init>>;

const require = createRequire(import.meta.url);

let module: Promise<Z3> | undefined;
let engine: Promise<SmtEngine> | undefined;

/** z3-solver's own glue; its wasm is next to it. */
const SHIPPED = require.resolve('z3-solver/build/z3-built.js');

/**
 * The glue file to load: the patched copy (made if missing, by an atomic
 * rename, as several processes may start at once), or the package's own.
 */
export function glueFile(): { readonly file: string; readonly patched: boolean } {
  const { text, patched } = fastGlue(readFileSync(SHIPPED, 'utf8'));
  if (!patched) return { file: SHIPPED, patched };
  const dir = join(tmpdir(), `osvlab-z3-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);
  const file = join(dir, 'z3-built.js');
  if (!existsSync(file)) {
    try {
      mkdirSync(dir, { recursive: true });
      const part = `${file}.${process.pid}.${threadId}.part`;
      writeFileSync(part, text);
      renameSync(part, file);
    } catch {
      // No writable temporary directory: the glue as it ships is only slower.
      return { file: SHIPPED, patched: false };
    }
  }
  return { file, patched };
}

async function load(): Promise<Z3> {
  const { file } = glueFile();
  const wasmDir = dirname(SHIPPED);
  // What z3-solver's own Node entry does, with our glue: the low-level API over the module, then the high-level one.
  const lowLevel = await (require('z3-solver/build/low-level') as { init: (m: unknown, o: unknown) => Promise<{ Z3: unknown; em: unknown }> }).init(require(file), {
    locateFile: (name: string) => join(wasmDir, name),
  });
  const { createApi } = require('z3-solver/build/high-level') as { createApi: (z3: unknown, em: unknown) => object };
  return { ...lowLevel, ...createApi(lowLevel.Z3, lowLevel.em) } as Z3;
}

/** The process-wide z3-solver module, loaded on first use (one WASM instance and thread pool per process). */
export function nodeZ3(): Promise<Z3> {
  module ??= load();
  return module;
}

/** The process-wide engine, initialised (and its threads started) on first use. */
export function nodeEngine(): Promise<SmtEngine> {
  engine ??= nodeZ3().then(async (z3) => {
    const e = createEngine(z3);
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
