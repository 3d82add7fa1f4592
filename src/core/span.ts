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
