// The two quantiles of src/core/quantile.ts, on samples small enough to check by hand.
import { describe, expect, it } from 'vitest';
import { ascending, interpolated, nearestRank } from '../src/core/quantile.ts';

describe('quantiles', () => {
  it('nearest rank gives an observed value: the smallest with at least q of the sample at or below it', () => {
    const s = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([0, 0.1, 0.5, 0.9, 0.91, 1].map((q) => nearestRank(s, q))).toEqual([1, 1, 5, 9, 10, 10]);
    expect(nearestRank([1, 2, 3, 4], 0.5)).toBe(2);
    expect(nearestRank([7], 0.9)).toBe(7);
  });

  it('interpolation is type 7: the median of an even count is the mean of the middle two', () => {
    expect(interpolated([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(interpolated(ascending([5, 1, 3]), 0.5)).toBe(3);
    expect(interpolated([0, 10], 0.25)).toBe(2.5);
    expect(interpolated(new Float64Array([1, 2, 3, 4, 5]), 0.9)).toBeCloseTo(4.6, 12);
  });

  it('gives NaN for no values and sorts a copy', () => {
    expect(nearestRank([], 0.5)).toBeNaN();
    expect(interpolated([], 0.5)).toBeNaN();
    const xs = [3, 1, 2];
    expect(ascending(xs)).toEqual([1, 2, 3]);
    expect(xs).toEqual([3, 1, 2]);
  });
});
