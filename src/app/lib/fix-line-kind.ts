/**
 * Where in a refuted spec the fix goes, as fix-line.ts finds it, and the
 * warning that explains the counterexample there. Apart from fix-line.ts,
 * which needs the dialect's parser: the verdict view reads these before that
 * parser has loaded (fix-line-soon.svelte.ts).
 */
import type { Diagnostic } from '../../core/diagnostic.ts';

export type FixLine =
  /** The statement that builds the returned condition (lines `line` to `endLine`). */
  | { readonly kind: 'condition'; readonly line: number; readonly endLine: number }
  /** The `return`: its state is not the old one when the call fails. */
  | { readonly kind: 'failure-state'; readonly line: number; readonly field: string }
  /** The write of `field` that is wrong (the verifier's own line). */
  | { readonly kind: 'write'; readonly line: number; readonly field: string }
  /** `field` is never written: its write goes after this line. */
  | { readonly kind: 'missing-write'; readonly line: number; readonly field: string }
  /** Nothing better than the verifier's line. */
  | { readonly kind: 'line'; readonly line: number };

/**
 * The warning that explains a refutation: one inside the statement the fix
 * goes to (a comparison that is always False inside the condition, say), or
 * on its line. A warning never changes the verdict, but it often says why.
 */
export function explainingWarning(warnings: readonly Diagnostic[], fix: FixLine | undefined): Diagnostic | undefined {
  if (!fix) return undefined;
  const end = fix.kind === 'condition' ? fix.endLine : fix.line;
  return warnings.find((w) => w.span.line >= fix.line && w.span.line <= end);
}
