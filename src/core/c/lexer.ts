/**
 * The C lexer: source text to preprocessing tokens with exact spans. It
 * skips comments and whitespace (a backslash-newline is whitespace that
 * does not end a line) and marks the first token of each logical line, so
 * the preprocessor can recognise directives.
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

/** Splits `text` (the contents of `file`) into tokens, ending with an `eof` token. */
export function lex(file: string, text: string): LexResult {
  const lines = new LineMap(file, text);
  const lineStarts = lines.starts;
  let lineNo = 1;
  const tokens: Token[] = [];
  const errors: CDiagnostic[] = [];
  let i = 0;
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
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      space = true;
      i += text[i + 1] === '\n' ? 2 : 3;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      // A line comment runs to the newline; a backslash-newline continues it.
      while (i < n && text[i] !== '\n') {
        if (text[i] === '\\' && text[i + 1] === '\n') i++;
        i++;
      }
      space = true;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) {
        errors.push(unterminated(lines.span(i, i + 2), 'comment'));
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
        errors.push(unterminated(lines.span(start, i), c === '"' ? 'string literal' : 'character literal'));
      }
      kind = c === '"' ? 'string' : 'char';
    } else {
      const p = PUNCT_BY_CHAR.get(c)?.find((q) => text.startsWith(q, i));
      if (!p) {
        errors.push(unexpectedChar(lines.span(i, i + 1), c));
        i++;
        continue;
      }
      i += p.length;
      kind = 'punct';
    }
    // Tokens never span a newline (continuations aside), so the line is the current one.
    while (lineNo < lineStarts.length && lineStarts[lineNo] <= start) lineNo++;
    const ls = lineStarts[lineNo - 1];
    const span: CSpan =
      i <= (lineStarts[lineNo] ?? Infinity)
        ? { file, line: lineNo, column: start - ls + 1, endLine: lineNo, endColumn: i - ls + 1, offset: start, endOffset: i }
        : lines.span(start, i);
    tokens.push({ kind, text: text.slice(start, i), span, bol, space });
    bol = false;
    space = false;
  }
  tokens.push({ kind: 'eof', text: '', span: lines.span(n, n), bol: true, space: true });
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

const ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, a: 7, b: 8, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 };

/** Decodes the characters between the quotes of a char or string literal. */
export function decodeEscapes(body: string): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out.push(c.charCodeAt(0));
      continue;
    }
    const e = body[++i];
    if (e === undefined) return undefined;
    if (e === 'x') {
      const m = /^[0-9a-fA-F]+/.exec(body.slice(i + 1));
      if (!m) return undefined;
      out.push(parseInt(m[0], 16) & 0xff);
      i += m[0].length;
    } else if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))!;
      out.push(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (e in ESCAPES) {
      out.push(ESCAPES[e]);
    } else {
      return undefined;
    }
  }
  return out;
}
