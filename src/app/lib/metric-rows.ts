/**
 * The Runs page's metrics table in words, and what its terms mean, so that
 * no figure stands undefined: pass@1 beside the pass rate, lemma passes
 * out of the passing first answers (never "0 of 0"), and bug-following with
 * what it counts. Pure, so the words are tested
 * (test/app/metric-rows.test.ts). A run imported from a file of answers
 * (`source`) has no measured requests: its tokens, cost and latency are
 * unknown, not 0.
 */
import { OUTCOMES, UNCHARGED, type RunMetrics } from '../../core/eval/stats/metrics.ts';
import { strayAttemptsNote } from '../../core/eval/stats/stray-attempts.ts';
import type { RunRecord } from '../../core/eval/run/run-types.ts';
import { plural } from '../../core/plural.ts';

const pct = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)}%`);

/** The table's rows: [metric, value]; "–" where there is nothing to count. */
export function metricRows(m: RunMetrics, run: RunRecord): [string, string][] {
  const unknown = run.source ? 'unknown (answers from a file)' : undefined;
  const bf = m.bugFollowing;
  return [
    ...Object.entries(m.passAtK).map(([k, v]) => [k.startsWith('pass') ? k : `pass@${k}`, pct(v)] as [string, string]),
    ...OUTCOMES.map((o) => [`${o} rate`, pct(m.rates[o])] as [string, string]),
    ...UNCHARGED.map((o) => [`${o} (not charged)`, String(m.uncharged[o])] as [string, string]),
    ['OSVBench pass / syntax / semantic', `${m.osvbench.counts.pass} / ${m.osvbench.counts.syntax} / ${m.osvbench.counts.semantic}`],
    ['lemma passes', m.counts.pass ? `${m.strictPasses} of ${plural(m.counts.pass, 'passing first answer')}` : '– (no first answer passed)'],
    ['lemma pass rate (of all first answers)', pct(m.strictRate)],
    ['missing samples', String(m.missingSamples)],
    ...(m.strayAttempts.count ? [['attempts of tasks not in the run', strayAttemptsNote(m.strayAttempts)!] as [string, string]] : []),
    ['pass after repair', pct(m.passAfterRepair)],
    ['bug-following', bf.samples ? `${bf.following} of ${plural(bf.samples, 'graded answer')} to buggy variants (${pct(bf.rate)})` : '– (no buggy variant answered)'],
    ['tokens in / out', unknown ?? `${m.tokens.input} / ${m.tokens.output}`],
    ['cost', unknown ?? `$${m.cost.usd.toFixed(4)}${m.cost.unpriced ? ` (${m.cost.unpriced} unpriced)` : ''}`],
    ['latency median / p90', unknown ?? `${m.latency.median ?? '–'} / ${m.latency.p90 ?? '–'} ms`],
  ];
}

/** What the table's terms mean, for the list under it. */
export const METRIC_TERMS: readonly (readonly [string, string])[] = [
  ['pass@1', 'the share of first answers (round 0) that pass, averaged over tasks: each task counts once, whatever its number of samples.'],
  ['pass@k', 'the chance that at least one of k samples of a task passes, averaged over tasks (unbiased estimator from n samples).'],
  ['pass rate', 'the share of all first answers that pass, every sample counted alike; equal to pass@1 when every task has the same number of samples.'],
  ['lemma passes', 'passing first answers that also keep the kernel\'s invariants and every isolation and refcount lemma; the lemma pass rate is their share of all first answers.'],
  ['bug-following', 'on a buggy variant, an answer that refines the buggy implementation it was shown (it describes the bug instead of the intended behaviour), out of the graded answers to buggy variants.'],
];
