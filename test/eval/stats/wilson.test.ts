/**
 * The Wilson score interval (src/core/eval/stats/wilson.ts) against values
 * worked out by hand from its formula, and the cases where a bootstrap over
 * tasks collapses to a point.
 */
import { describe, expect, it } from 'vitest';
import { bootstrapMeanCi } from '../../../src/core/eval/stats/bootstrap.ts';
import { wilsonCi } from '../../../src/core/eval/stats/wilson.ts';

describe('the Wilson score interval', () => {
  // centre = (p + z²/2n) / (1 + z²/n), half = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/4n²), z = 1.96.
  it.each([
    [1, 5, 0.5655, 1], // 5 of 5: z² = 3.8415, centre 0.7827, half 0.2173
    [0, 5, 0, 0.4345],
    [0.5, 10, 0.2366, 0.7634],
    [0.2, 100, 0.13337, 0.28883],
  ])('p=%f over %i tasks', (p, n, lo, hi) => {
    const ci = wilsonCi(p, n)!;
    expect(ci[0]).toBeCloseTo(lo, 4);
    expect(ci[1]).toBeCloseTo(hi, 4);
  });

  it('does not collapse where the bootstrap over tasks does: all 5 tasks passing', () => {
    expect(bootstrapMeanCi([1, 1, 1, 1, 1], 2000, 's')).toEqual([1, 1]);
    const [lo, hi] = wilsonCi(1, 5)!;
    expect(hi).toBe(1);
    expect(lo).toBeLessThan(0.6);
  });

  it('has no interval without tasks or for a share outside [0, 1]', () => {
    expect(wilsonCi(0.5, 0)).toBeNull();
    expect(wilsonCi(1.5, 4)).toBeNull();
    expect(wilsonCi(Number.NaN, 4)).toBeNull();
  });
});
