/**
 * Source positions shared by both languages' diagnostics. Lines and columns
 * are 1-based; `end*` point just past the last character; `offset`s are
 * 0-based UTF-16 indices into the source text.
 */
export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly offset: number;
  readonly endOffset: number;
}

/** A user-facing error: stable code, short message for an editor marker, and where. */
export interface Diagnostic {
  /** Stable code, e.g. "SPEC012" or "C004". */
  readonly code: string;
  /** One line, suitable for an editor marker. */
  readonly message: string;
  readonly span: Span;
  /** Longer text for a terminal: message plus a code frame. */
  readonly detail?: string;
  /** 'warning' for a warning (it never changes a result); absent for an error. */
  readonly severity?: 'warning';
}

/** Renders `source` around `span` with a caret line, like compilers do. */
export function codeFrame(source: string, span: Span, context = 1): string {
  const lines = source.split('\n');
  const first = Math.max(1, span.line - context);
  const last = Math.min(lines.length, span.line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = lines[n - 1] ?? '';
    out.push(`${n === span.line ? '>' : ' '} ${String(n).padStart(width)} | ${text}`);
    if (n === span.line) {
      const endCol = span.endLine === span.line ? Math.max(span.endColumn, span.column + 1) : text.length + 1;
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(span.column - 1)}${'^'.repeat(Math.max(1, endCol - span.column))}`);
    }
  }
  return out.join('\n');
}
