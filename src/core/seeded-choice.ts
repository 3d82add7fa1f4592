/**
 * What a run chooses for each lens over the text a model is shown (the
 * names, docs/rename.md; the code's order, docs/shape.md): a style and a
 * seed. Plain data, so a run's config, the CLI's flags and the pages'
 * selectors can name one without loading the lens itself.
 */

/** A lens's style and the seed its choices are drawn from. */
export interface SeededChoice<S extends string> {
  readonly style: S;
  readonly seed: number;
}

/**
 * Why `value` is not a choice of `styles` a run can use, or undefined when
 * it is one; `what` names the lens in the message ("renaming", "shape").
 */
export function seededChoiceError<S extends string>(value: unknown, what: string, styles: readonly S[]): string | undefined {
  if (typeof value !== 'object' || value === null) return `a ${what} is an object {style, seed}`;
  const { style, seed } = value as { style?: unknown; seed?: unknown };
  if (!styles.includes(style as S)) return `unknown ${what} style ${JSON.stringify(style)} (known: ${styles.join(', ')})`;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) return `a ${what} seed is a whole number >= 0, got ${JSON.stringify(seed)}`;
  return undefined;
}

/** A choice as tables, labels and pages name it: `synonym #1`, or `none` when there is no choice. */
export function seededChoiceText<S extends string>(choice: SeededChoice<S> | undefined, none: string): string {
  return choice ? `${choice.style} #${choice.seed}` : none;
}
