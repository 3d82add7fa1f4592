/** Loads Z3 in Node (the npm package's own loader) and wraps it in our engine. */
import { init } from 'z3-solver';
import { type SmtEngine, createEngine } from '../core/smt/solver.ts';

let engine: Promise<SmtEngine> | undefined;

/** The process-wide engine, initialised on first use. */
export function nodeEngine(): Promise<SmtEngine> {
  engine ??= init().then((z3) => createEngine(z3));
  return engine;
}
