/**
 * `--shape STYLE [--shape-seed N]` (docs/shape.md), read the same way by
 * every command that takes it: no `--shape` is the kernel's own order, and
 * a seed without a shape is a usage error.
 */
import type { ShapeChoice, ShapeStyle } from '../core/shape/choice.ts';
import { type ParsedArgs, UsageError, choiceOption, intOption } from './args.ts';

/** The shape the command line chooses, or undefined for the kernel's own order. */
export function shapeOption(args: ParsedArgs): ShapeChoice | undefined {
  const style = choiceOption<ShapeStyle>(args, 'shape');
  if (!style) {
    if (args.values.has('shape-seed')) throw new UsageError('--shape-seed goes with --shape STYLE');
    return undefined;
  }
  return { style, seed: intOption(args, 'shape-seed', { min: 0 }) };
}
