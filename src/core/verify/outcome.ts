/**
 * How a check came out, and how several fold into one. Every part of the
 * verifier (refinement obligations, lemmas, spec invariants) reports one of
 * four outcomes; a group is as bad as its worst member: a failure beats a
 * timeout, which beats an unknown, which beats a proof. `unknown` is never
 * folded into `timeout` (docs/lemmas.md, "What a result means").
 */
import type { ObligationResult } from './verdict.ts';

export type ObligationOutcome = ObligationResult['status'];

const RANK: Readonly<Record<ObligationOutcome, number>> = { proved: 0, unknown: 1, timeout: 2, failed: 3 };

/** The worst of `outcomes` (`proved` for none). */
export function worst(outcomes: Iterable<ObligationOutcome>): ObligationOutcome {
  let w: ObligationOutcome = 'proved';
  for (const o of outcomes) if (RANK[o] > RANK[w]) w = o;
  return w;
}

/** A solver answer that is neither sat nor unsat: a timeout (or a cancel) or a genuine unknown. */
export function undecided(reason: string): 'timeout' | 'unknown' {
  return /timeout|canceled|interrupted/i.test(reason) ? 'timeout' : 'unknown';
}
