/**
 * The code-order lens as a run chooses it (docs/shape.md, core/lens.ts): a
 * style and a seed. Plain data, so a run's config, the CLI's flags and the
 * page's selector can name one without loading the parser.
 */

import { type Lens, type LensChoice, lensChoiceError, lensChoiceText } from '../lens.ts';

/** `permuted`: struct fields, helper functions and independent assignments reordered. */
export type ShapeStyle = 'permuted';

export const SHAPE_STYLES: readonly ShapeStyle[] = ['permuted'];

/** The code-order lens: what every flag, label and selector of a shape says. */
export const SHAPE_LENS: Lens<ShapeStyle> = {
  key: 'shape',
  what: 'shape',
  styles: SHAPE_STYLES,
  styleText: { permuted: 'permuted' },
  defaultSeed: 1,
  none: 'kernel order',
  own: "the kernel's own",
  label: 'Code order',
  seedLabel: 'Order seed',
  title: 'The order the shown code is in: permuted reorders struct fields, helper functions and independent assignments; answers are graded as written (docs/shape.md)',
};

/** A shape as a run's config records it (`--shape STYLE --shape-seed N`). */
export type ShapeChoice = LensChoice<ShapeStyle>;

/** The seed of a shape that names none (`--shape` without `--shape-seed`). */
export const DEFAULT_SHAPE_SEED = SHAPE_LENS.defaultSeed;

/** Why `value` is not a shape a run can use, or undefined when it is one. */
export function shapeChoiceError(value: unknown): string | undefined {
  return lensChoiceError(value, SHAPE_LENS.what, SHAPE_LENS.styles);
}

/** How a shape is named in tables, labels and pages: `permuted #1`, or `kernel order`. */
export function shapeText(choice: ShapeChoice | undefined): string {
  return lensChoiceText(choice, SHAPE_LENS.none);
}
