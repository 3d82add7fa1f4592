/**
 * Just enough of Python's lexical structure to rewrite a spec as text: where
 * comments and strings are, which parenthesis closes which, and the
 * top-level arguments of a call. Used by make-corpus.ts only; the rewrites it
 * makes are checked by the verifier before they are kept.
 */

/** The spec without comments (a line that held only a comment goes too). */
export function stripComments(src: string): string {
  const out: string[] = [];
  for (const line of src.split('\n')) {
    const cut = commentStart(line);
    if (cut < 0) out.push(line);
    else if (line.slice(0, cut).trim() !== '') out.push(line.slice(0, cut).trimEnd());
  }
  return out.join('\n');
}

/** The characters of `text` from `from` on that are not inside a string literal, with their index. */
function* code(text: string, from = 0): Generator<[number, string]> {
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else yield [i, c];
  }
}

/** Where a `#` comment starts on `line` (outside strings), or -1. */
function commentStart(line: string): number {
  for (const [i, c] of code(line)) if (c === '#') return i;
  return -1;
}

const OPEN = '([{';
const CLOSE = ')]}';

/** The index of the parenthesis (or bracket) closing the one at `open`. */
export function closing(src: string, open: number): number {
  let depth = 0;
  for (const [i, c] of code(src, open)) {
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c) && --depth === 0) return i;
  }
  throw new Error(`unbalanced parenthesis at ${open}`);
}

/** The top-level comma-separated parts of `inner` (the text between a call's parentheses), trimmed. */
export function splitArgs(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (const [i, c] of code(inner)) {
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** A call `name(...)` in the source: where it starts, its parenthesis and its arguments. */
export interface Call {
  readonly start: number;
  readonly open: number;
  readonly close: number;
  readonly args: string[];
}

/** Every call of `name` (e.g. `z3.And`), outermost first, not preceded by a word character or a dot. */
export function calls(src: string, name: string): Call[] {
  const out: Call[] = [];
  const re = new RegExp(`(?<![\\w.])${name.replace(/\./g, '\\.')}\\(`, 'g');
  for (const m of src.matchAll(re)) {
    const open = m.index + name.length;
    const close = closing(src, open);
    out.push({ start: m.index, open, close, args: splitArgs(src.slice(open + 1, close)) });
  }
  return out;
}

/**
 * Rewrites the calls of `name` whose replacement `f` gives (undefined keeps a
 * call), innermost last so that nested calls are rewritten too.
 */
export function rewriteCalls(src: string, name: string, f: (args: string[]) => string | undefined): string {
  const found = calls(src, name);
  if (found.length === 0) return src;
  // The outermost first: rewrite it with its arguments already rewritten.
  const top = found.filter((c) => !found.some((d) => d !== c && d.open < c.start && c.close < d.close));
  let out = '';
  let at = 0;
  for (const c of top) {
    const args = c.args.map((a) => rewriteCalls(a, name, f));
    const same = args.every((a, i) => a === c.args[i]);
    out += src.slice(at, c.start) + (f(args) ?? (same ? src.slice(c.start, c.close + 1) : `${name}(${args.join(', ')})`));
    at = c.close + 1;
  }
  return out + src.slice(at);
}

/** The spec's parameter names of `def <entry>(...)`. */
export function params(src: string, entry: string): string[] {
  const i = src.search(new RegExp(`def\\s+${entry}\\s*\\(`));
  if (i < 0) return [];
  const open = src.indexOf('(', i);
  return splitArgs(src.slice(open + 1, closing(src, open)));
}

/** Replaces the identifier `name` (not an attribute, not part of a longer word) with `to`. */
export function renameIdentifier(src: string, name: string, to: string): string {
  return src.replace(new RegExp(`(?<![\\w.'"])${name}(?![\\w'"])`, 'g'), to);
}
