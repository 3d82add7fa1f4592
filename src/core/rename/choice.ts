/**
 * A renaming as a run chooses it (docs/rename.md): a style and a seed. Plain
 * data, so a run's config, the CLI's flags and the pages' selectors can name
 * one without loading the lens.
 */

/** `synonym`: names that keep their meaning; `opaque`: names that carry none. */
export type RenameStyle = 'synonym' | 'opaque';

export const RENAME_STYLES: readonly RenameStyle[] = ['synonym', 'opaque'];

/** A renaming as a run's config records it (`--rename STYLE --rename-seed N`). */
export interface RenameChoice {
  readonly style: RenameStyle;
  readonly seed: number;
}

/** The seed of a renaming that names none (`--rename` without `--rename-seed`). */
export const DEFAULT_RENAME_SEED = 1;

/** Why `value` is not a renaming a run can use, or undefined when it is one. */
export function renameChoiceError(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'a renaming is an object {style, seed}';
  const { style, seed } = value as { style?: unknown; seed?: unknown };
  if (!RENAME_STYLES.includes(style as RenameStyle)) return `unknown renaming style ${JSON.stringify(style)} (known: ${RENAME_STYLES.join(', ')})`;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) return `a renaming seed is a whole number >= 0, got ${JSON.stringify(seed)}`;
  return undefined;
}

/** How a renaming is named in tables, labels and pages: `synonym #1`, or `hv6` for hv6's own names. */
export function namesText(choice: RenameChoice | undefined): string {
  return choice ? `${choice.style} #${choice.seed}` : 'hv6';
}
