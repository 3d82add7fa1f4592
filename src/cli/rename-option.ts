/**
 * `--rename STYLE [--rename-seed N]` (docs/rename.md), read the same way by
 * every command that takes it: no `--rename` is hv6's own names, and a seed
 * without a renaming is a usage error.
 */
import type { RenameChoice, RenameStyle } from '../core/rename/choice.ts';
import { type ParsedArgs, UsageError, choiceOption, intOption } from './args.ts';

/** The renaming the command line chooses, or undefined for hv6's own names. */
export function renameOption(args: ParsedArgs): RenameChoice | undefined {
  const style = choiceOption<RenameStyle>(args, 'rename');
  if (!style) {
    if (args.values.has('rename-seed')) throw new UsageError('--rename-seed goes with --rename STYLE');
    return undefined;
  }
  return { style, seed: intOption(args, 'rename-seed', { min: 0 }) };
}
