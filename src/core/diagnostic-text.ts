/**
 * The terminal rendering of a Diagnostic, as compilers print one:
 *
 *   file:line:col: error CODE: message
 *   <code frame>
 *   note: ...
 *   call trace (innermost first):
 *     in f, called at line 3
 *
 * Used by every CLI command that prints an error or a warning, for the
 * `detail` text of spec and C diagnostics, and for the repair prompt.
 */
import type { Diagnostic } from './diagnostic.ts';
import type { Span } from './span.ts';

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

export interface TextOptions {
  /** The text the span points into; without it there is no code frame. */
  readonly source?: string;
  /** The name to print for the file (a path the user typed); defaults to the diagnostic's own `file`. */
  readonly file?: string;
}

/** The first line: `file:line:col: severity CODE: message` (parts without a value left out). */
function diagnosticHead(d: Diagnostic<Span | undefined>, file = d.file): string {
  const where = d.span ? `${file === undefined ? '' : `${file}:`}${d.span.line}:${d.span.column}: ` : file === undefined ? '' : `${file}: `;
  return `${where}${d.severity} ${d.code}: ${d.message}`;
}

/** The whole terminal text of `d`, without a trailing newline. */
export function diagnosticText(d: Diagnostic<Span | undefined>, opts: TextOptions = {}): string {
  const out = [diagnosticHead(d, opts.file ?? d.file)];
  if (d.span && opts.source !== undefined) out.push(codeFrame(opts.source, d.span));
  for (const n of d.notes ?? []) out.push(`note: ${n}`);
  if (d.trace?.length) out.push('call trace (innermost first):', ...d.trace.map((t) => `  ${t}`));
  return out.join('\n');
}
