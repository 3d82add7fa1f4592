/** Loads Z3 in Node (the npm package's own loader) and wraps it in our engine. */
import { init } from 'z3-solver';
import { type SmtEngine, createEngine, warmUp } from '../core/smt/solver.ts';
import { VerifierCaches, type VerifyEnv } from '../core/verify/index.ts';

let module: ReturnType<typeof init> | undefined;
let engine: Promise<SmtEngine> | undefined;

/** The process-wide z3-solver module, loaded on first use (one WASM instance and thread pool per process). */
export function nodeZ3(): ReturnType<typeof init> {
  module ??= init();
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
