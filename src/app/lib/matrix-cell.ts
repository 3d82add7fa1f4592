/**
 * What a verdict in a variant matrix says about a spec, for the playground's
 * matrix and a run's: a good spec is verified on the correct implementation
 * and refuted on each buggy one. A refutation on a buggy variant counts only
 * when the spec holds on the correct one: a spec refuted everywhere catches
 * no bug, it is simply wrong.
 */
import type { VerdictStatus } from '../../core/verify/verdict.ts';

export type CellMeaning = 'expected' | 'unexpected' | 'moot' | 'undecided' | 'pending';

/**
 * The meaning of `status` on a variant (`buggy` or the correct one), for a
 * spec whose verdict on the correct implementation is `onCorrect`.
 */
export function cellMeaning(status: VerdictStatus | undefined, buggy: boolean, onCorrect: VerdictStatus | undefined): CellMeaning {
  if (status === undefined) return 'pending';
  if (status === 'timeout' || status === 'unknown') return 'undecided';
  if (!buggy) return status === 'verified' ? 'expected' : 'unexpected';
  if (onCorrect === 'refuted' || onCorrect === 'spec-error') return 'moot';
  return status === 'refuted' ? 'expected' : 'unexpected';
}

/** The mark beside the verdict, so the meaning is not told by colour alone. */
export const MARK: Record<CellMeaning, string> = { expected: '✓', unexpected: '✗', moot: '–', undecided: '?', pending: '…' };

/** The legend's sentence for each meaning, in the order the legend lists them. */
export const MEANING: readonly [CellMeaning, string][] = [
  ['expected', 'as a good spec should be: verified on the correct implementation, refuted on a buggy one (its bug is caught)'],
  ['unexpected', 'not as it should be: refuted (or an error) on the correct implementation, or verified on a buggy one (its bug is missed)'],
  ['moot', 'refuted on a buggy implementation by a spec that is refuted on the correct one too: that catches nothing'],
  ['undecided', 'no answer (timeout or unknown)'],
];
