/**
 * Quantiles of a sample, the two ways the project reports them. Both take
 * values sorted ascending and a fraction q in [0, 1], and give NaN for no
 * values (callers say what an empty sample shows).
 *
 * - `nearestRank`: an observed value, the smallest with at least a fraction q
 *   of the sample at or below it. Tail figures (p10, p90) and timings use it,
 *   so a reported p90 is a time or a count that really happened.
 * - `interpolated`: linear between the two nearest order statistics
 *   (Hyndman and Fan's type 7, R's default). Medians use it (the median of an
 *   even count is the mean of the middle two), and so do the bounds of a
 *   bootstrap interval, which are estimates rather than observations.
 */

/** Nearest-rank q-quantile of `sorted` (ascending); NaN when empty. */
export function nearestRank(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  return sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))];
}

/** Linearly interpolated (type 7) q-quantile of `sorted` (ascending); NaN when empty. */
export function interpolated(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** An ascending copy of `values`. */
export function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}
