/**
 * A lens over the benchmark: a view that changes what a model is shown but
 * not what is graded. There are two, each a `Lens` value: the names
 * (rename/choice.ts `RENAME_LENS`, docs/rename.md) and the order of the shown
 * code (shape/choice.ts `SHAPE_LENS`, docs/shape.md). A run chooses a lens by
 * a style and a seed (`LensChoice`), plain data, so a run's config, the CLI's
 * flags (cli/lens-option.ts) and the pages' one selector (LensSelect.svelte)
 * can name one without loading the lens's own code.
 */

/** A lens's style and the seed its choices are drawn from. */
export interface LensChoice<S extends string> {
  readonly style: S;
  readonly seed: number;
}

/** One lens, as the CLI, the pages and a run's config describe it. */
export interface Lens<S extends string> {
  /** The flag (`--rename`, `--shape`); `--KEY-seed` is its seed. */
  readonly key: 'rename' | 'shape';
  /** The lens in a message: "renaming", "shape". */
  readonly what: string;
  readonly styles: readonly S[];
  /** Each style as the page's selector shows it. */
  readonly styleText: Readonly<Record<S, string>>;
  /** The seed of a choice that names none (`--KEY` without `--KEY-seed`). */
  readonly defaultSeed: number;
  /** No lens, as tables and labels name it ("hv6", "kernel order"). */
  readonly none: string;
  /** No lens, as the page's selector offers it ("hv6's own"). */
  readonly own: string;
  /** The page's labels of the style and the seed, and what the lens does. */
  readonly label: string;
  readonly seedLabel: string;
  readonly title: string;
}

/**
 * Why `value` is not a choice of `styles` a run can use, or undefined when
 * it is one; `what` names the lens in the message ("renaming", "shape").
 */
export function lensChoiceError<S extends string>(value: unknown, what: string, styles: readonly S[]): string | undefined {
  if (typeof value !== 'object' || value === null) return `a ${what} is an object {style, seed}`;
  const { style, seed } = value as { style?: unknown; seed?: unknown };
  if (!styles.includes(style as S)) return `unknown ${what} style ${JSON.stringify(style)} (known: ${styles.join(', ')})`;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) return `a ${what} seed is a whole number >= 0, got ${JSON.stringify(seed)}`;
  return undefined;
}

/** A choice as tables, labels and pages name it: `synonym #1`, or `none` when there is no choice. */
export function lensChoiceText<S extends string>(choice: LensChoice<S> | undefined, none: string): string {
  return choice ? `${choice.style} #${choice.seed}` : none;
}
