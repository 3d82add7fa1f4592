/**
 * Tables of numbers as plain data (a header and rows of strings), built
 * once and shown by every front end: the terminal pads them
 * (`tableText`), the page puts the same strings in an HTML table, so the
 * CLI and the page show the same table (docs/research.md). Also the one
 * formatting of percentages, intervals and differences these tables use.
 */
import type { RoundComparison } from './compare-runs.ts';
import type { RepairCurve } from './repair-curve.ts';

export interface Table {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** 0.4567 -> "45.7%". */
export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** A difference in points: 0.1 -> "+10.0". */
export const pts = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;

/** An interval of shares, "[40.0%, 60.0%]"; "-" without one. */
export const pctInterval = (ci: readonly [number, number] | null): string => (ci ? `[${pct(ci[0])}, ${pct(ci[1])}]` : '-');

/** An interval of differences, "[-5.0, +10.0]"; "-" without one. */
export const ptsInterval = (ci: readonly [number, number] | null): string => (ci ? `[${pts(ci[0])}, ${pts(ci[1])}]` : '-');

/** A p-value, in exponent form when it is tiny. */
export const pValue = (p: number): string => (p < 0.0001 ? p.toExponential(2) : p.toFixed(4));

/** A count that may be missing, rounded. */
export const whole = (x: number | null): string => (x === null ? '-' : String(Math.round(x)));

/** USD with four decimals. */
export const usd = (x: number): string => `$${x.toFixed(4)}`;

/**
 * One row per round of a repair curve: pass@1 and its interval, then counts
 * of chains (a task's sample and its repairs): passed by the end of the
 * round, passed first in it, failed in every round so far, and left out for
 * want of an answer; then spending per new pass. `CURVE_NOTE` says so in a line.
 */
export function curveTable(curve: RepairCurve): Table {
  return {
    header: ['round', 'pass@1', '95% CI', 'passed by then', 'new passes', 'still failing', 'no answer yet', 'tokens', 'tokens per new pass', 'cost per new pass'],
    rows: curve.points.map((p) => [
      String(p.round),
      pct(p.pass1),
      pctInterval(p.ci95),
      String(p.passed),
      String(p.fixed),
      String(p.chains - p.passed),
      String(p.open),
      String(p.tokens.input + p.tokens.output),
      whole(p.tokensPerFix),
      p.costPerFix === null ? '-' : usd(p.costPerFix),
    ]),
  };
}

/** What the repair curve table's counts count, in one line under it. */
export const CURVE_NOTE =
  "Counts are of chains (one sample of a task and its repairs). New passes: chains that passed first in that round (round 0: first answers that passed; later rounds: repairs). Still failing: failed in every round so far. No answer yet: a round so far has no graded answer of the model, so the chain is left out of that round's pass@1.";

/** One row per round of a paired comparison: passed by that round in A and B, the difference, its interval, McNemar's p. */
export function roundTable(byRound: readonly RoundComparison[]): Table {
  return {
    header: ['round', 'tasks', 'A', 'B', 'B-A', '95% CI', 'A+', 'B+', 'McNemar p'],
    rows: byRound.map(({ round, stats: s }) => [String(round), String(s.tasks), pct(s.pass1A), pct(s.pass1B), pts(s.diff), ptsInterval(s.ci95), String(s.onlyA), String(s.onlyB), pValue(s.mcnemarP)]),
  };
}

/** Which columns are right-aligned: those whose every cell is a number, a share, an interval or "-". */
export function numericColumns(t: Table): boolean[] {
  return t.header.map((_, col) => t.rows.every((r) => /^[-+$\d.,%[\] e]*$/.test(r[col] ?? '')));
}

/** The table as padded lines of text, `indent` spaces in. */
export function tableText(t: Table, indent = 2): string[] {
  const widths = t.header.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const right = numericColumns(t);
  const line = (cells: readonly string[]) =>
    ' '.repeat(indent) + cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(t.header), ...t.rows.map(line)];
}
