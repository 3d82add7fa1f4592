/**
 * A one-query refutation check for screening candidate mutations: do the
 * oracle spec and the mutated implementation disagree anywhere? It states
 * the same refinement obligations as `verify()` but asks a single solver
 * query for a state that falsifies any of them, and stops there. A
 * satisfying state is replayed by our own evaluator before it counts. The
 * finished variants are then checked with `verify()` itself.
 */
import { type Value, evaluate } from '../smt/eval.ts';
import * as o from '../smt/ops.ts';
import type { SmtEngine } from '../smt/solver.ts';
import { runSpec } from '../dialect/index.ts';
import { loadProgram, requireHandler, runImplementation } from '../verify/index.ts';
import {
  assumeInvariants, condObligation, fieldObligations, invariantObligation, safetyObligation,
} from '../verify/refinement.ts';

export type QuickVerdict =
  /** A replayed state where the spec and the implementation disagree (or the implementation is unsafe). */
  | 'refuted'
  /** No such state: the implementation refines the spec (an equivalent mutant). */
  | 'equivalent'
  /** The solver gave up, the replay disagreed, or the spec did not run. */
  | 'unknown';

export async function quickRefute(
  req: { readonly handler: string; readonly spec: string; readonly implSource: string; readonly timeoutMs?: number },
  engine: SmtEngine,
): Promise<QuickVerdict> {
  const h = requireHandler(req.handler);
  const program = loadProgram(req.implSource);
  const impl = runImplementation(program, h);
  const spec = runSpec(req.spec, h.name, impl.pre, impl.args.map((a) => a.term));
  if (!spec.ok) return 'unknown';
  const step = { ...impl, cond: spec.cond, post: spec.post };
  const goals = [condObligation(step), ...fieldObligations(step), safetyObligation(step), invariantObligation(step)].map((ob) => ob.goal);
  const negated = o.not(o.and(...goals));
  const assumptions = assumeInvariants(impl.mem)([negated]);
  const r = await engine.check([...assumptions, negated], { timeoutMs: req.timeoutMs ?? 60000 });
  if (r.status === 'unsat') return 'equivalent';
  if (r.status === 'unknown') return 'unknown';
  try {
    const memo = new Map<number, Value>();
    const replayed = assumptions.every((a) => evaluate(a, r.model, memo) === true) && evaluate(negated, r.model, memo) === true;
    return replayed ? 'refuted' : 'unknown';
  } finally {
    r.model.dispose();
  }
}
