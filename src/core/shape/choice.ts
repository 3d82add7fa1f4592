/**
 * A shape as a run chooses it (docs/shape.md): a style and a seed. Plain
 * data, so a run's config, the CLI's flags and the pages' selectors can
 * name one without loading the parser.
 */

import { type SeededChoice, seededChoiceError, seededChoiceText } from '../seeded-choice.ts';

/** `permuted`: struct fields, helper functions and independent assignments reordered. */
export type ShapeStyle = 'permuted';

export const SHAPE_STYLES: readonly ShapeStyle[] = ['permuted'];

/** A shape as a run's config records it (`--shape STYLE --shape-seed N`). */
export type ShapeChoice = SeededChoice<ShapeStyle>;

/** The seed of a shape that names none (`--shape` without `--shape-seed`). */
export const DEFAULT_SHAPE_SEED = 1;

/** Why `value` is not a shape a run can use, or undefined when it is one. */
export function shapeChoiceError(value: unknown): string | undefined {
  return seededChoiceError(value, 'shape', SHAPE_STYLES);
}

/** How a shape is named in tables, labels and pages: `permuted #1`, or `kernel order`. */
export function shapeText(choice: ShapeChoice | undefined): string {
  return seededChoiceText(choice, 'kernel order');
}
