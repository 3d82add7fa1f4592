/**
 * The one shape of every user-facing problem: spec errors and warnings
 * (dialect/errors.ts, dialect/warnings.ts), C errors (c/errors.ts) and
 * request errors (llm/errors.ts). Each family keeps its codes and its error
 * class, and hands out this shape (`toDiagnostic()`), so the terminal
 * (diagnostic-text.ts) and the editor (app/lib/markers.ts) each render all of
 * them with one function.
 */
import type { Span } from './span.ts';

/** A warning never changes a result; an error is why there is none. */
export type Severity = 'error' | 'warning';

/**
 * A coded problem. `Where` is `Span` for problems in a text (spec, C), the
 * default; a request error points at no text and has `span: undefined`.
 */
export interface Diagnostic<Where extends Span | undefined = Span> {
  /** Stable code, e.g. "SPEC012", "C004", "LLM001". */
  readonly code: string;
  readonly severity: Severity;
  /** One line, suitable for an editor marker. */
  readonly message: string;
  readonly span: Where;
  /** The file the span is in, when there is more than one text (C units). */
  readonly file?: string;
  /** Extra explanation lines (a hint, what upstream does). */
  readonly notes?: readonly string[];
  /** Where the error happened in the spec's calls, innermost first ("in f, called at line 3"). */
  readonly trace?: readonly string[];
  /** The terminal text (diagnostic-text.ts), filled in where the source text was at hand. */
  readonly detail?: string;
}

/** Any error object of ours that can describe itself as a Diagnostic. */
export interface HasDiagnostic {
  toDiagnostic(): Diagnostic<Span | undefined>;
}

export function hasDiagnostic(e: unknown): e is HasDiagnostic {
  return typeof e === 'object' && e !== null && typeof (e as Partial<HasDiagnostic>).toDiagnostic === 'function';
}
