/**
 * A universally quantified fact as data: its bound sorts, a body built from
 * terms for the bound variables, and the triggers that say where instances
 * come from. The kernel states its invariants and lemmas this way; the
 * verifier instantiates them (instantiate.ts), so the type lives below both.
 */
import type { Sort, Term } from './term.ts';

/** `forall vars. body(vars)`, with the patterns that trigger instantiation. */
export interface Quantified {
  readonly name: string;
  /** One-line English gloss. */
  readonly gloss: string;
  readonly vars: readonly Sort[];
  /**
   * Each trigger names an uninterpreted function and, for each variable, the
   * argument position of that function it is read from.
   */
  readonly triggers: readonly Trigger[];
  readonly body: (xs: readonly Term[]) => Term;
  /**
   * How many generations of instances away from a query's own terms the
   * fact still fires (instantiate.ts, default 1; 0: only at the query's own terms).
   */
  readonly depth?: number;
  /** Cross-product triggers (see PairTrigger). */
  readonly pairs?: PairTrigger;
}

export interface Trigger {
  readonly fn: string;
  readonly positions: readonly number[];
}

/**
 * A cross-product trigger for a fact over (owner, object...): every owner
 * term that `owner` triggers bind, paired with every object that `owned`
 * triggers bind, among the query's own terms (generation 0). It gives the
 * facts relating a count to an object no single term mentions together,
 * e.g. "the page being allocated is not yet the caller's".
 */
export interface PairTrigger {
  readonly owner: readonly Trigger[];
  readonly owned: readonly Trigger[];
}
