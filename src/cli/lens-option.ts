/**
 * A lens's two flags, `--rename STYLE [--rename-seed N]` (docs/rename.md) and
 * `--shape STYLE [--shape-seed N]` (docs/shape.md), read the same way by
 * every command that takes them, from the lens value (core/lens.ts): no
 * style is no lens (hv6's own names, the kernel's own order), and a seed
 * without a style is a usage error.
 */
import type { Lens, LensChoice } from '../core/lens.ts';
import { type ParsedArgs, UsageError, choiceOption, intOption } from './args.ts';

/** The choice the command line makes for `lens`, or undefined when it names no style. */
export function lensOption<S extends string>(args: ParsedArgs, lens: Lens<S>): LensChoice<S> | undefined {
  const style = choiceOption<S>(args, lens.key);
  if (!style) {
    if (args.values.has(`${lens.key}-seed`)) throw new UsageError(`--${lens.key}-seed goes with --${lens.key} STYLE`);
    return undefined;
  }
  return { style, seed: intOption(args, `${lens.key}-seed`, { min: 0 }) };
}
