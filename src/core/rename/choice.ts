/**
 * The names lens as a run chooses it (docs/rename.md, core/lens.ts): a
 * style and a seed. Plain data, so a run's config, the CLI's flags and the
 * page's selector can name one without loading the renaming itself.
 */

import { type Lens, type LensChoice, lensChoiceError, lensChoiceText } from '../lens.ts';

/** `synonym`: names that keep their meaning; `opaque`: names that carry none. */
export type RenameStyle = 'synonym' | 'opaque';

export const RENAME_STYLES: readonly RenameStyle[] = ['synonym', 'opaque'];

/** The names lens: what every flag, label and selector of a renaming says. */
export const RENAME_LENS: Lens<RenameStyle> = {
  key: 'rename',
  what: 'renaming',
  styles: RENAME_STYLES,
  styleText: { synonym: 'synonyms (meaning kept)', opaque: 'opaque (no meaning)' },
  defaultSeed: 1,
  none: 'hv6',
  own: "hv6's own",
  label: 'Names',
  seedLabel: 'Names seed',
  title: 'The names the model is shown; answers are renamed back before grading (docs/rename.md)',
};

/** A renaming as a run's config records it (`--rename STYLE --rename-seed N`). */
export type RenameChoice = LensChoice<RenameStyle>;

/** The seed of a renaming that names none (`--rename` without `--rename-seed`). */
export const DEFAULT_RENAME_SEED = RENAME_LENS.defaultSeed;

/** Why `value` is not a renaming a run can use, or undefined when it is one. */
export function renameChoiceError(value: unknown): string | undefined {
  return lensChoiceError(value, RENAME_LENS.what, RENAME_LENS.styles);
}

/** How a renaming is named in tables, labels and pages: `synonym #1`, or `hv6` for hv6's own names. */
export function namesText(choice: RenameChoice | undefined): string {
  return lensChoiceText(choice, RENAME_LENS.none);
}
