/**
 * The percentile bootstrap of a mean over tasks: resample the tasks with
 * replacement, take the mean of each resample, and read the 2.5% and 97.5%
 * quantiles of those means. Seeded, so an interval is reproducible. Used for
 * a paired difference (compare-runs.ts: each task's pass(B) - pass(A)) and
 * for pass@1 after each repair round (repair-curve.ts: each task's share of
 * passing samples).
 */
import { interpolated } from '../../quantile.ts';
import { rng } from '../../rng.ts';

/** The 95% percentile interval of mean(values) under resampling; null without values. */
export function bootstrapMeanCi(values: readonly number[], resamples: number, seed: string): readonly [number, number] | null {
  const n = values.length;
  if (n === 0) return null;
  const r = rng(seed);
  const means = new Float64Array(resamples);
  for (let s = 0; s < resamples; s++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(r() * n)];
    means[s] = sum / n;
  }
  means.sort();
  return [interpolated(means, 0.025), interpolated(means, 0.975)];
}
