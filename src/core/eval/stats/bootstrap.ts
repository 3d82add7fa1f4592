/**
 * The percentile bootstrap of a mean over tasks: resample the tasks with
 * replacement, take the mean of each resample, and read the 2.5% and 97.5%
 * quantiles of those means. Seeded, so an interval is reproducible. Used for
 * a paired difference (compare-runs.ts: each task's pass(B) - pass(A)) and
 * for pass@1 after each repair round (repair-curve.ts: each task's share of
 * passing samples).
 */
import { rng } from '../../rng.ts';

/** A quantile of sorted values, interpolating linearly between order statistics (Hyndman-Fan type 7). */
function quantile(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

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
  return [quantile(means, 0.025), quantile(means, 0.975)];
}
