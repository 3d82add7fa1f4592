/**
 * The steps the verifier reasons about, as plain data: what a handler's
 * implementation and its spec do from one symbolic start. Every part of
 * verify/ that states or checks an obligation takes one of these; this file
 * imports nothing of verify/, so a reader can start here.
 */
import type { CMemory } from '../kernel/equiv.ts';
import type { HandlerArg } from '../kernel/handlers.ts';
import type { AbstractState } from '../kernel/state.ts';
import type { Term } from '../smt/term.ts';

/**
 * The implementation's side of a step: impl_h(σ, a) = (ret, σ'), run once
 * per program and handler (it does not depend on the spec).
 */
export interface ImplementationStep {
  /** σ, the C pre-state (fresh symbols). */
  readonly mem: CMemory;
  /** S, the abstract pre-state read from σ. */
  readonly pre: AbstractState;
  /** a, the handler's fresh symbolic arguments (`arg.<name>`). */
  readonly args: readonly { readonly arg: HandlerArg; readonly term: Term }[];
  /** The implementation's return value (32-bit int), post-memory and safety conditions. */
  readonly ret: Term;
  readonly memAfter: CMemory;
  readonly safety: readonly { readonly label: string; readonly ok: Term }[];
  /**
   * What C guarantees of each global's address, by the name of its constant
   * (`&proc_table`): non-null, aligned, in range. Never assumed (hv6 assumes
   * nothing of it: refinement.ts); only preferred in a counterexample.
   */
  readonly addresses: ReadonlyMap<string, Term>;
}

/** The spec's side of a step: spec_h(S, a) = (cond, S'). */
export interface SpecStep {
  readonly cond: Term;
  readonly post: AbstractState;
}

/** One run of both sides from the same start (refinement.ts). */
export type RefinementStep = ImplementationStep & SpecStep;

/**
 * A spec step from a symbolic start, with no implementation: what the
 * declarative checks read (docs/lemmas.md). `post` already folds in the
 * condition (the spec returns `If(cond, new, old)`); `cond` is kept for
 * reporting and for the proof key.
 */
export interface SymbolicStep extends SpecStep {
  readonly handler: string;
  readonly pre: AbstractState;
}
