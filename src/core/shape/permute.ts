/**
 * The permuted shape of a task's shown code (docs/shape.md): each region
 * of units.ts reordered by a seeded draw among the orders it allows, so
 * the code's lines are the original lines in another order and every
 * original line can be followed to its new place (`lineOf`), which is how
 * a line number cited about the code (a bug's line) follows its
 * statement.
 *
 * The draw is keyed by the seed and the region's own text, so a region
 * that reads the same in two tasks (`struct proc`'s fields, a helper's
 * body) is shown in the same order in both, and a prompt's examples and
 * its task show one kernel. A region that allows any other order is never
 * left as it was.
 */
import { rng } from '../rng.ts';
import type { ShapeChoice } from './choice.ts';
import { type LineRange, type Region, type UnitKind, UNIT_KINDS, shapeRegions } from './units.ts';

export interface ShapedCode {
  readonly text: string;
  /** For each line of `text` (0-based), the original line it is (0-based). */
  readonly origin: readonly number[];
  /** The units that may move, per kind, and how many did. */
  readonly units: Readonly<Record<UnitKind, { readonly movable: number; readonly moved: number }>>;
}

/** Draws to find an order other than the original before keeping it (a region with freedom rarely needs two). */
const MAX_DRAWS = 16;

/** `code` in the shape `choice` gives it. Deterministic. */
export function shapeCode(code: string, choice: ShapeChoice): ShapedCode {
  const lines = code.split('\n');
  const order = lines.map((_, i) => i);
  const units = Object.fromEntries(UNIT_KINDS.map((k) => [k, { movable: 0, moved: 0 }])) as Record<UnitKind, { movable: number; moved: number }>;
  for (const region of shapeRegions(code)) {
    const text = region.units.map((u) => lines.slice(u.start, u.end).join('\n')).join('\n\0');
    const perm = drawOrder(region, rng(`shape/${choice.style}/${choice.seed}/${region.kind}/${text}`));
    apply(order, region.units, perm);
    units[region.kind].movable += region.units.length;
    units[region.kind].moved += perm.filter((u, k) => u !== k).length;
  }
  return { text: order.map((i) => lines[i]).join('\n'), origin: order, units };
}

/** The line (1-based) of the shaped code that is `line` (1-based) of the original. */
export function shapedLine(shaped: ShapedCode, line: number): number {
  const at = shaped.origin.indexOf(line - 1);
  return at < 0 ? line : at + 1;
}

/**
 * A seeded order of the region's units that keeps every unit after those
 * it must follow (a uniform pick among the units free to come next), other
 * than the original when the region allows another.
 */
function drawOrder(region: Region, random: () => number): number[] {
  const n = region.units.length;
  const free = region.units.some((_, j) => j > 0 && !region.before[j].includes(j - 1));
  let perm: number[] = [];
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    perm = [];
    const placed = new Set<number>();
    while (perm.length < n) {
      const ready = region.units.map((_, j) => j).filter((j) => !placed.has(j) && region.before[j].every((i) => placed.has(i)));
      if (!ready.length) throw new Error(`the ${region.kind} units of ${region.where} depend on each other in a cycle`);
      const pick = ready[Math.floor(random() * ready.length)];
      perm.push(pick);
      placed.add(pick);
    }
    if (!free || perm.some((u, k) => u !== k)) return perm;
  }
  // Still the original after every draw: swap the first two units that may swap.
  const j = region.units.findIndex((_, j) => j > 0 && !region.before[j].includes(j - 1));
  [perm[j - 1], perm[j]] = [perm[j], perm[j - 1]];
  return perm;
}

/**
 * Rewrites `order` (original line per position) so the units of a region
 * stand in `perm`'s order; the lines between units (blank lines) stay
 * where they were. Units are ranges of positions in the original, which a
 * region nested in a unit (assignments in a function) leaves in place.
 */
function apply(order: number[], units: readonly LineRange[], perm: readonly number[]): void {
  const out: number[] = [];
  perm.forEach((u, k) => {
    out.push(...order.slice(units[u].start, units[u].end));
    if (k + 1 < units.length) out.push(...order.slice(units[k].end, units[k + 1].start));
  });
  order.splice(units[0].start, out.length, ...out);
}
