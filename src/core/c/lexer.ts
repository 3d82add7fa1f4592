/**
 * The C lexer: source text to preprocessing tokens with exact spans. It
 * first splices lines (a backslash-newline vanishes, even inside a name or
 * an operator, as in C's translation phase 2), then skips comments and
 * whitespace and marks the first token of each logical line, so the
 * preprocessor can recognise directives.
 *
 * Numbers are kept as their spelling (pp-numbers); the parser checks and
 * converts them, since only what survives preprocessing must be valid.
 */
import type { CSpan } from './ast.ts';
import { type CDiagnostic, unexpectedChar, unterminated } from './errors.ts';

export type TokenKind = 'ident' | 'number' | 'char' | 'string' | 'punct' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The spelling: identifier, operator, number text, or the literal with its quotes. */
  readonly text: string;
  readonly span: CSpan;
  /** First token of a logical source line. */
  readonly bol: boolean;
  /** Whitespace (or a comment) comes right before it. */
  readonly space: boolean;
  /** Macros that produced this token and must not expand it again (preprocessor). */
  readonly hide?: ReadonlySet<string>;
}

const PUNCTS = [
  '...', '<<=', '>>=',
  '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||',
  '+=', '-=', '*=', '/=', '%=', '&=', '^=', '|=', '##',
  '{', '}', '[', ']', '(', ')', ';', ':', ',', '.', '?', '!', '~',
  '+', '-', '*', '/', '%', '&', '|', '^', '=', '<', '>', '#',
];

const PUNCT_BY_CHAR = new Map<string, string[]>();
for (const p of PUNCTS) {
  const list = PUNCT_BY_CHAR.get(p[0]) ?? [];
  list.push(p);
  PUNCT_BY_CHAR.set(p[0], list);
}

/** Maps offsets of one text to 1-based lines and columns. */
class LineMap {
  /** Offsets where lines begin (line n starts at starts[n - 1]). */
  readonly starts: number[] = [0];

  constructor(
    readonly file: string,
    text: string,
  ) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  private locate(offset: number): [number, number] {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, offset - this.starts[lo] + 1];
  }

  span(start: number, end: number): CSpan {
    const [line, column] = this.locate(start);
    const [endLine, endColumn] = this.locate(end);
    return { file: this.file, line, column, endLine, endColumn, offset: start, endOffset: end };
  }
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

export interface LexResult {
  readonly tokens: Token[];
  readonly errors: CDiagnostic[];
}

/**
 * `raw` with its backslash-newlines removed, and where each character of the
 * result sits in `raw` (undefined when nothing was removed). `at[k]` is the
 * offset of character k; `at[text.length]` is the length of `raw`.
 */
function spliceLines(raw: string): { text: string; at?: Int32Array } {
  const splice = /\\\r?\n/g;
  if (!splice.test(raw)) return { text: raw };
  splice.lastIndex = 0;
  const at = new Int32Array(raw.length + 1);
  const parts: string[] = [];
  let k = 0;
  let from = 0;
  const keep = (to: number) => {
    for (let j = from; j < to; j++) at[k++] = j;
    parts.push(raw.slice(from, to));
  };
  for (let m = splice.exec(raw); m; m = splice.exec(raw)) {
    keep(m.index);
    from = m.index + m[0].length;
  }
  keep(raw.length);
  at[k] = raw.length;
  return { text: parts.join(''), at };
}

/** Splits `raw` (the contents of `file`) into tokens, ending with an `eof` token; spans are offsets into `raw`. */
export function lex(file: string, raw: string): LexResult {
  const lines = new LineMap(file, raw);
  const { text, at } = spliceLines(raw);
  // A span of the spliced text [start, end) in the raw text: from the first character to just after the last.
  const rawSpan = (start: number, end: number): CSpan =>
    at ? lines.span(at[start], end > start ? at[end - 1] + 1 : at[start]) : lines.span(start, end);
  const lineStarts = lines.starts;
  let lineNo = 1;
  const tokens: Token[] = [];
  const errors: CDiagnostic[] = [];
  // A UTF-8 byte-order mark opening the file is skipped, as gcc skips it (an editor's, not C).
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let bol = true;
  let space = false;
  const n = text.length;

  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      bol = true;
      space = true;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      space = true;
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      // A line comment runs to the newline (a backslash-newline was spliced away, so it continues it).
      while (i < n && text[i] !== '\n') i++;
      space = true;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) {
        errors.push(unterminated(rawSpan(i, i + 2), 'comment'));
        i = n;
        break;
      }
      i = end + 2;
      space = true;
      continue;
    }

    const start = i;
    let kind: TokenKind;
    if (isIdentStart(c)) {
      while (i < n && isIdentPart(text[i])) i++;
      kind = 'ident';
    } else if (isDigit(c) || (c === '.' && isDigit(text[i + 1] ?? ''))) {
      // pp-number: digits, letters, '_', '.', and e+/e-/p+/p- pairs.
      i++;
      while (i < n) {
        const x = text[i];
        if ((x === '+' || x === '-') && 'eEpP'.includes(text[i - 1])) i++;
        else if (isIdentPart(x) || x === '.') i++;
        else break;
      }
      kind = 'number';
    } else if (c === '"' || c === "'") {
      i++;
      let closed = false;
      while (i < n && text[i] !== '\n') {
        if (text[i] === '\\') {
          i += 2;
          continue;
        }
        if (text[i] === c) {
          closed = true;
          i++;
          break;
        }
        i++;
      }
      if (!closed) {
        // Still a token, so that the preprocessor can tell it sits in a skipped group.
        i = Math.min(i, n);
        errors.push(unterminated(rawSpan(start, i), c === '"' ? 'string literal' : 'character literal'));
      }
      kind = c === '"' ? 'string' : 'char';
    } else {
      const p = PUNCT_BY_CHAR.get(c)?.find((q) => text.startsWith(q, i));
      if (!p) {
        errors.push(unexpectedChar(rawSpan(i, i + 1), c));
        i++;
        continue;
      }
      i += p.length;
      kind = 'punct';
    }
    let span: CSpan;
    if (at) span = rawSpan(start, i);
    else {
      // Without splices a token never spans a newline, so the line is the current one.
      while (lineNo < lineStarts.length && lineStarts[lineNo] <= start) lineNo++;
      const ls = lineStarts[lineNo - 1];
      span = i <= (lineStarts[lineNo] ?? Infinity)
        ? { file, line: lineNo, column: start - ls + 1, endLine: lineNo, endColumn: i - ls + 1, offset: start, endOffset: i }
        : lines.span(start, i);
    }
    tokens.push({ kind, text: text.slice(start, i), span, bol, space });
    bol = false;
    space = false;
  }
  tokens.push({ kind: 'eof', text: '', span: rawSpan(n, n), bol: true, space: true });
  return { tokens, errors };
}

/** The value and suffix of an integer literal, or why it is not one of the subset. */
export type IntLiteral =
  | { readonly ok: true; readonly value: bigint; readonly decimal: boolean; readonly unsigned: boolean; readonly longs: 0 | 1 | 2 }
  | { readonly ok: false; readonly why: string };

/** Decodes a pp-number as a C integer literal (decimal, hex or octal; suffixes U, L, LL). */
export function intLiteral(text: string): IntLiteral {
  const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)$/.exec(text);
  if (!m) {
    if (/[.eEpP]/.test(text) && !/^0[xX]/.test(text)) return { ok: false, why: 'floating-point numbers are not supported' };
    return { ok: false, why: 'not an integer literal' };
  }
  const [, digits, suffix] = m;
  if (!/^(?:[uU]?(?:l|L|ll|LL)?|(?:l|L|ll|LL)[uU])$/.test(suffix)) return { ok: false, why: `bad suffix '${suffix}'` };
  const unsigned = /[uU]/.test(suffix);
  const longs = suffix.replace(/[uU]/, '').length as 0 | 1 | 2;
  let value: bigint;
  let decimal = false;
  if (/^0[xX]/.test(digits) || /^0[bB]/.test(digits)) value = BigInt(digits.toLowerCase());
  else if (digits.length > 1 && digits[0] === '0') {
    if (/[89]/.test(digits)) return { ok: false, why: 'invalid digit in an octal number' };
    value = BigInt('0o' + digits.slice(1));
  } else {
    value = BigInt(digits);
    decimal = true;
  }
  if (value >= 1n << 64n) return { ok: false, why: 'too large for 64 bits' };
  return { ok: true, value, decimal, unsigned, longs };
}

// Standard C's, and GNU C's \e for escape (gcc -std=gnu11 takes it silently).
const ESCAPES = new Map([
  ['n', 10], ['t', 9], ['r', 13], ['a', 7], ['b', 8], ['f', 12], ['v', 11], ['\\', 92], ["'", 39], ['"', 34], ['?', 63], ['e', 27], ['E', 27],
]);

/** The bytes of the characters between the quotes of a char or string literal, or why they are not C. */
export type Escapes = { readonly ok: true; readonly bytes: number[] } | { readonly ok: false; readonly why: string };

/**
 * Decodes the characters between the quotes of a char or string literal.
 * An escape must name one byte: gcc -Werror refuses `'\777'` and `'\x100'`
 * (out of range) and `'\q'` (unknown), and so do we.
 */
export function decodeEscapes(body: string): Escapes {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(c.charCodeAt(0));
      continue;
    }
    const e = body[++i];
    if (e === undefined) return { ok: false, why: 'a backslash ends it' };
    if (e === 'x') {
      const m = /^[0-9a-fA-F]+/.exec(body.slice(i + 1));
      if (!m) return { ok: false, why: '\\x used with no following hex digits' };
      const v = BigInt(`0x${m[0]}`);
      if (v > 0xffn) return { ok: false, why: 'hex escape sequence out of range' };
      bytes.push(Number(v));
      i += m[0].length;
    } else if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))!;
      const v = parseInt(m[0], 8);
      if (v > 0xff) return { ok: false, why: 'octal escape sequence out of range' };
      bytes.push(v);
      i += m[0].length - 1;
    } else {
      const v = ESCAPES.get(e);
      if (v === undefined) return { ok: false, why: `unknown escape sequence '\\${e}'` };
      bytes.push(v);
    }
  }
  return { ok: true, bytes };
}

/** The byte of a character literal (with its quotes), or why it is not one of the subset. */
export function charLiteral(text: string): { readonly ok: true; readonly byte: number } | { readonly ok: false; readonly why: string } {
  const cs = decodeEscapes(text.slice(1, -1));
  if (!cs.ok) return cs;
  if (cs.bytes.length !== 1) return { ok: false, why: 'a character literal must hold exactly one character' };
  return { ok: true, byte: cs.bytes[0] };
}
