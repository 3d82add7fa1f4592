/** Loads Z3 in Node (the npm package's own loader) and wraps it in our engine. */
import { init } from 'z3-solver';
import { type SmtEngine, createEngine } from '../core/smt/solver.ts';

let module: ReturnType<typeof init> | undefined;
let engine: Promise<SmtEngine> | undefined;

/** The process-wide z3-solver module, loaded on first use (one WASM instance and thread pool per process). */
export function nodeZ3(): ReturnType<typeof init> {
  module ??= init();
  return module;
}

/** The process-wide engine, initialised on first use. */
export function nodeEngine(): Promise<SmtEngine> {
  engine ??= nodeZ3().then((z3) => createEngine(z3));
  return engine;
}
