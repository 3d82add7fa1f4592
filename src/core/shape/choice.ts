/**
 * A shape as a run chooses it (docs/shape.md): a style and a seed. Plain
 * data, so a run's config, the CLI's flags and the pages' selectors can
 * name one without loading the parser.
 */

/** `permuted`: struct fields, helper functions and independent assignments reordered. */
export type ShapeStyle = 'permuted';

export const SHAPE_STYLES: readonly ShapeStyle[] = ['permuted'];

/** A shape as a run's config records it (`--shape STYLE --shape-seed N`). */
export interface ShapeChoice {
  readonly style: ShapeStyle;
  readonly seed: number;
}

/** The seed of a shape that names none (`--shape` without `--shape-seed`). */
export const DEFAULT_SHAPE_SEED = 1;

/** Why `value` is not a shape a run can use, or undefined when it is one. */
export function shapeChoiceError(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a shape is an object {style, seed}';
  const { style, seed } = value as { style?: unknown; seed?: unknown };
  if (!SHAPE_STYLES.includes(style as ShapeStyle)) return `unknown shape style ${JSON.stringify(style)} (known: ${SHAPE_STYLES.join(', ')})`;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) return `a shape seed is a whole number >= 0, got ${JSON.stringify(seed)}`;
  return undefined;
}

/** How a shape is named in tables, labels and pages: `permuted #1`, or `kernel order`. */
export function shapeText(choice: ShapeChoice | undefined): string {
  return choice ? `${choice.style} #${choice.seed}` : 'kernel order';
}
