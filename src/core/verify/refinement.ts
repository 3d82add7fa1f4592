/**
 * Refinement of one handler (docs/design.md §3). From a C state σ
 * that satisfies the representation invariants, and the abstract state S it
 * represents (equivalent by construction, see kernel/equiv.ts):
 *
 *   spec_h(S, a) = (cond, S')      impl_h(σ, a) = (ret, σ')
 *
 * prove  cond == (ret == 0),  S'.f == abs(σ').f  for every backed field f
 * (under the field's guard),  the implementation is safe, and σ' satisfies
 * the representation invariants again.
 *
 * This module only states the obligations; it knows nothing of C or Python
 * syntax. `prove.ts` discharges them.
 */
import * as o from '../smt/ops.ts';
import { type Term, bvConst } from '../smt/term.ts';
import { BACKED_FIELDS, type CMemory, abstractRead, backing, skolems } from '../kernel/equiv.ts';
import { implInvariants } from '../kernel/invariants.ts';
import type { FieldSchema } from '../kernel/schema.ts';
import { type AbstractState, countOf } from '../kernel/state.ts';
import type { Obligation } from './prove.ts';
import type { ImplementationStep, RefinementStep } from './steps.ts';
import { type InstantiateOptions, instantiate, skolemize } from '../smt/instantiate.ts';
import type { Quantified } from '../smt/quantified.ts';

/** A field obligation keeps what is needed to show a counterexample row. */
export interface FieldObligation extends Obligation {
  readonly field: FieldSchema;
  readonly indices: readonly Term[];
  readonly oldValue: Term;
  readonly specValue: Term;
  readonly implValue: Term;
}

export function isFieldObligation(ob: Obligation): ob is FieldObligation {
  return 'field' in ob;
}

/** The value of field `path` of an abstract state at `xs` (a Refcnt's count). */
function readField(s: AbstractState, field: FieldSchema, xs: readonly Term[]): Term {
  return countOf(s.get(field.path)!).apply(xs);
}

/** cond == (ret == 0): the spec succeeds exactly when the implementation returns 0. */
function condObligation(step: RefinementStep): Obligation {
  return { name: 'cond', goal: o.eq(step.cond, o.eq(step.ret, bvConst(0, step.ret.sort))) };
}

/** S'.f == abs(σ').f at fresh indices satisfying the field's guard. */
function fieldObligations(step: RefinementStep): FieldObligation[] {
  return BACKED_FIELDS.map((field) => {
    const xs = skolems(field, 'ref');
    const specValue = readField(step.post, field, xs);
    const implValue = abstractRead(step.memAfter, field.path, xs);
    const oldValue = readField(step.pre, field, xs);
    const goal = o.implies(backing(field.path)!.guard(xs), o.eq(specValue, implValue));
    return { name: field.path, goal, field, indices: xs, oldValue, specValue, implValue };
  });
}

/** No assert fails, no index is out of bounds, no division by zero or signed division overflow, no shift too far. */
function safetyObligation(step: ImplementationStep): Obligation {
  const parts = step.safety.map((s) => ({ label: s.label, goal: s.ok }));
  return { name: 'safety', goal: o.and(...parts.map((p) => p.goal)), parts };
}

/** σ' satisfies the representation invariants (each skolemised). */
function invariantObligation(step: ImplementationStep): Obligation {
  const parts = implInvariants(step.memAfter, step.mem).map((inv) => ({ label: inv.name, goal: skolemize(inv, 'post').goal }));
  return { name: 'impl-invariants', goal: o.and(...parts.map((p) => p.goal)), parts };
}

/** The obligations that depend on the spec: cond, then every compared field. */
export function specObligations(step: RefinementStep): Obligation[] {
  return [condObligation(step), ...fieldObligations(step)];
}

/** The obligations of the implementation alone: safety, then its invariants. */
export function implObligations(step: ImplementationStep): Obligation[] {
  return [safetyObligation(step), invariantObligation(step)];
}

/** The theorem: every refinement obligation of one step, spec-dependent ones first. */
export function refinementObligations(step: RefinementStep): Obligation[] {
  return [...specObligations(step), ...implObligations(step)];
}

/**
 * How refinement instantiates the representation invariants: two
 * generations, the facts' own order, without the ground facts' terms as
 * roots (smt/instantiate.ts says why it is not the lemmas' default).
 */
const INVARIANT_INSTANCES: InstantiateOptions = { limit: 20000, order: 'fact', groundRoots: false };

/**
 * The assumptions of a query: the representation invariants of σ at the
 * query's terms, and nothing about where the globals are. hv6's verifier
 * gives each global whose address the kernel takes a fresh 64-bit value and
 * constrains it no further, so neither do we: C's facts about addresses
 * (c/memory.ts `addressFacts`) only pick the counterexample shown
 * (counterexample-wellformed.ts), never the verdict (docs/c-subset.md,
 * "Memory model").
 */
export function assumeInvariants(mem: CMemory): (roots: readonly Term[]) => Term[] {
  const facts: Quantified[] = implInvariants(mem);
  return (roots) => instantiate(facts, roots, INVARIANT_INSTANCES);
}
