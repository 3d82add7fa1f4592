/**
 * Source positions shared by both languages' diagnostics, and the few
 * operations on them (as Ohm's intervals have: a cover, a collapse). Lines
 * and columns are 1-based; `end*` point just past the last character;
 * `offset`s are 0-based UTF-16 indices into the source text. The operations
 * keep any other field of their first argument (a C span's `file`).
 */
export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly offset: number;
  readonly endOffset: number;
}

/** The empty span at the very start of a text, for problems that belong to no construct. */
export const TEXT_START: Span = { line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, endOffset: 0 };

/** The smallest span covering both `a` and `b`, in either order. */
export function cover<S extends Span>(a: S, b: S): S {
  const first = a.offset <= b.offset ? a : b;
  const last = a.endOffset >= b.endOffset ? a : b;
  return through(first, last);
}

/** From the start of `from` to the end of `to` (a node from its first token to its last). */
export function through<S extends Span>(from: S, to: Span): S {
  return { ...from, endLine: to.endLine, endColumn: to.endColumn, endOffset: to.endOffset };
}

/** The empty span where `s` begins. */
export function startOf<S extends Span>(s: S): S {
  return { ...s, endLine: s.line, endColumn: s.column, endOffset: s.offset };
}
