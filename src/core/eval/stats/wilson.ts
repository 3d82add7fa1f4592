/**
 * The Wilson score interval of a proportion: p̂ successes' share of n trials,
 * at 95% (z = 1.96). Unlike the bootstrap over tasks, it does not collapse
 * to a point when every task passes or every task fails (5 of 5 gives
 * [56.6%, 100%], not [100%, 100%]), so the Results page uses it for a share
 * over fewer than FEW_TASKS tasks (docs/publish.md, "The figures").
 * p̂ may be a mean of per-task shares (several samples per task): the tasks
 * are the trials.
 */

/** Below this many tasks a bootstrap interval over tasks is too coarse to cite (it may collapse to a point). */
export const FEW_TASKS = 10;

const Z95 = 1.959963984540054;

/** The 95% Wilson score interval of share `p` over `n` trials; null without trials. */
export function wilsonCi(p: number, n: number): readonly [number, number] | null {
  if (!(n > 0) || !(p >= 0 && p <= 1)) return null;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
