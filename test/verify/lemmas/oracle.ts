/**
 * Runs an oracle spec (tasks/hv6/specs, with its shared helpers) on a fresh
 * symbolic pre-state: the input of the lemma checks.
 */
import { KERNEL, oracleSpec } from '../../../src/core/kernel/content.ts';
import { findHandler } from '../../../src/core/kernel/handlers.ts';
import { type AbstractState, freshState } from '../../../src/core/kernel/state.ts';
import { type Term, variable } from '../../../src/core/smt/term.ts';
import { runSpec } from '../../../src/core/dialect/index.ts';
import type { SymbolicStep } from '../../../src/core/verify/steps.ts';

/** The handlers that have an oracle spec in the bundle. */
export function oracleHandlers(): string[] {
  return Object.keys(KERNEL.specs).filter((h) => findHandler(h) !== undefined).sort();
}

/** Runs `source` (a spec text, `# uses:` already resolved) for `handler` from a fresh state. */
export function stepOf(source: string, handler: string, pre: AbstractState = freshState()): SymbolicStep {
  const h = findHandler(handler);
  if (!h) throw new Error(`unknown handler ${handler}`);
  const args: Term[] = h.args.map((a) => variable(`arg.${a.name}`, a.width));
  const r = runSpec(source, h.name, pre, args);
  if (!r.ok) throw new Error(`${handler}: ${r.error.message}`);
  return { pre, cond: r.cond, post: r.post, handler: h.name };
}

/** The oracle's step for `handler`. */
export function oracleStep(handler: string): SymbolicStep {
  const src = oracleSpec(handler);
  if (src === undefined) throw new Error(`no oracle spec for ${handler}`);
  return stepOf(src, handler);
}
