/**
 * A universally quantified fact as data: its bound sorts, a body built from
 * terms for the bound variables, and the triggers that say where instances
 * come from. The kernel states its invariants and lemmas this way; the
 * verifier instantiates them (src/core/verify/quantified.ts), so the type
 * lives below both.
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
}

export interface Trigger {
  readonly fn: string;
  readonly positions: readonly number[];
}
