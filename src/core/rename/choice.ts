/**
 * A renaming as a run chooses it (docs/rename.md): a style and a seed. Plain
 * data, so a run's config, the CLI's flags and the pages' selectors can name
 * one without loading the lens.
 */

import { type SeededChoice, seededChoiceError, seededChoiceText } from '../seeded-choice.ts';

/** `synonym`: names that keep their meaning; `opaque`: names that carry none. */
export type RenameStyle = 'synonym' | 'opaque';

export const RENAME_STYLES: readonly RenameStyle[] = ['synonym', 'opaque'];

/** A renaming as a run's config records it (`--rename STYLE --rename-seed N`). */
export type RenameChoice = SeededChoice<RenameStyle>;

/** The seed of a renaming that names none (`--rename` without `--rename-seed`). */
export const DEFAULT_RENAME_SEED = 1;

/** Why `value` is not a renaming a run can use, or undefined when it is one. */
export function renameChoiceError(value: unknown): string | undefined {
  return seededChoiceError(value, 'renaming', RENAME_STYLES);
}

/** How a renaming is named in tables, labels and pages: `synonym #1`, or `hv6` for hv6's own names. */
export function namesText(choice: RenameChoice | undefined): string {
  return seededChoiceText(choice, 'hv6');
}
