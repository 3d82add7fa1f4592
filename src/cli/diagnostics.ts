/**
 * How the CLI prints a Diagnostic: the terminal text of core/diagnostic-text.ts
 * on a stream, and the `--json` form (`{code, message, line, column}` as
 * before, plus severity, and file, notes and trace where there are any).
 */
import type { Diagnostic } from '../core/diagnostic.ts';
import { type TextOptions, diagnosticText } from '../core/diagnostic-text.ts';
import type { Span } from '../core/span.ts';

/** Writes the terminal text of `d`, newline-terminated. */
export function printDiagnostic(stream: NodeJS.WritableStream, d: Diagnostic<Span | undefined>, opts: TextOptions = {}): void {
  stream.write(`${diagnosticText(d, opts)}\n`);
}

export interface DiagnosticJson {
  readonly code: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  readonly file?: string;
  readonly severity: Diagnostic['severity'];
  readonly notes?: readonly string[];
  readonly trace?: readonly string[];
}

/** The `--json` form of `d`; `file` overrides the diagnostic's own file name. */
export function diagnosticJson(d: Diagnostic<Span | undefined>, file = d.file): DiagnosticJson {
  return {
    code: d.code,
    message: d.message,
    ...(d.span ? { line: d.span.line, column: d.span.column } : {}),
    ...(file !== undefined ? { file } : {}),
    severity: d.severity,
    ...(d.notes?.length ? { notes: d.notes } : {}),
    ...(d.trace?.length ? { trace: d.trace } : {}),
  };
}
