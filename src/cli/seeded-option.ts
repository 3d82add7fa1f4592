/**
 * A lens's two flags, `--rename STYLE [--rename-seed N]` (docs/rename.md) and
 * `--shape STYLE [--shape-seed N]` (docs/shape.md), read the same way by
 * every command that takes them: no style is no lens (hv6's own names, the
 * kernel's own order), and a seed without a style is a usage error.
 */
import type { SeededChoice } from '../core/seeded-choice.ts';
import { type ParsedArgs, UsageError, choiceOption, intOption } from './args.ts';

/** The choice the command line makes for `lens`, or undefined when it names no style. */
export function seededOption<S extends string>(args: ParsedArgs, lens: 'rename' | 'shape'): SeededChoice<S> | undefined {
  const style = choiceOption<S>(args, lens);
  if (!style) {
    if (args.values.has(`${lens}-seed`)) throw new UsageError(`--${lens}-seed goes with --${lens} STYLE`);
    return undefined;
  }
  return { style, seed: intOption(args, `${lens}-seed`, { min: 0 }) };
}
