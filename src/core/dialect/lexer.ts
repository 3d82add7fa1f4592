/**
 * Turns spec text into tokens, following the tokenizer of CPython 2.7 (the
 * Python hv6 runs): logical lines end in NEWLINE, indentation changes become
 * INDENT/DEDENT, newlines inside brackets and after a backslash join lines,
 * comments vanish, a UTF-8 byte-order mark at the start is skipped. Names
 * are ASCII; `print` is a keyword unless the module's future statements
 * turn on print_function (future.ts). Integer literals (`0777` is octal,
 * `10L` is a long) become bigints; floats and complex numbers are rejected.
 * The source text is read as Python 2 reads a file (source-encoding.ts), and
 * strings decode as Python 2 decodes them: a byte string holds bytes (one
 * character 0-255 per byte: a non-ASCII character of the source is its
 * UTF-8 bytes), a unicode literal (`u''`, `ur''`, or every literal under
 * `unicode_literals`) holds text, and `\u`, `\U` and `\N{...}` are escapes
 * only in unicode literals.
 */
import type { Span } from '../span.ts';
import { intTooLarge, lexicalError, unsupportedConstruct } from './errors.ts';
import { type SourceCoding, sourceEncoding } from './source-encoding.ts';
import { KEYWORDS, OPERATORS, type Token } from './tokens.ts';
import { unicodeCharacter } from './unicode-names.ts';

/** Python ints beyond this many bits are refused everywhere (no hangs on huge literals). */
export const MAX_INT_BITS = 4096;

const ID_START = /[A-Za-z_]/;
const ID_CONT = /[A-Za-z0-9_]/;
// Python 2.7's prefixes, and the f-string ones (refused by the parser with their own message).
const STRING_PREFIX = /^(r|u|ur|b|br|f|fr|rf)$/i;

/** The one-letter escapes of a string literal (`\n` is a newline); octal digits are escapes of their own. */
const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['n', '\n'], ['t', '\t'], ['r', '\r'], ['\\', '\\'], ["'", "'"], ['"', '"'], ['a', '\x07'], ['b', '\b'], ['f', '\f'], ['v', '\v'],
]);

/** The UTF-8 bytes of one character, one JavaScript character (0-255) per byte. */
export function utf8Bytes(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x80) return ch;
  const b = (n: number) => String.fromCharCode(n);
  if (cp < 0x800) return b(0xc0 | (cp >> 6)) + b(0x80 | (cp & 63));
  if (cp < 0x10000) return b(0xe0 | (cp >> 12)) + b(0x80 | ((cp >> 6) & 63)) + b(0x80 | (cp & 63));
  return b(0xf0 | (cp >> 18)) + b(0x80 | ((cp >> 12) & 63)) + b(0x80 | ((cp >> 6) & 63)) + b(0x80 | (cp & 63));
}

/** What a module's future statements change in how its text is tokenised. */
export interface LexFeatures {
  /** `print` is a name, not the print statement. */
  readonly printFunction?: boolean;
  /** Every string literal without a `b` prefix is a unicode literal. */
  readonly unicodeLiterals?: boolean;
}

export function lex(source: string, features: LexFeatures = {}): Token[] {
  return new Lexer(source, features).run();
}

class Lexer {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private depth = 0;
  private readonly tokens: Token[] = [];
  private readonly indents = [0];
  /** How the non-ASCII text of a unicode literal decodes. */
  private readonly coding: SourceCoding;

  constructor(
    private readonly src: string,
    private readonly features: LexFeatures,
  ) {
    const nul = src.indexOf('\0');
    if (nul >= 0) throw lexicalError(this.spanAt(nul), 'source text cannot contain a NUL byte (Python 2 refuses the file)');
    const enc = sourceEncoding(src, (offset) => this.spanAt(offset));
    this.coding = enc.coding;
    // A UTF-8 byte-order mark declares the encoding (PEP 263); it takes no column.
    if (enc.bom) this.i = this.lineStart = 1;
  }

  /** The one-character span at `offset`. */
  private spanAt(offset: number): Span {
    const before = this.src.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - (before.lastIndexOf('\n') + 1) + 1;
    return { line, column, offset, endLine: line, endColumn: column + 1, endOffset: offset + 1 };
  }

  private span(startOffset: number, startLine: number, startCol: number): Span {
    return {
      line: startLine,
      column: startCol,
      offset: startOffset,
      endLine: this.line,
      endColumn: this.i - this.lineStart + 1,
      endOffset: this.i,
    };
  }

  private here(): [number, number, number] {
    return [this.i, this.line, this.i - this.lineStart + 1];
  }

  private push(kind: Token['kind'], value: string, start: [number, number, number], extra: Partial<Token> = {}) {
    this.tokens.push({ kind, value, span: this.span(...start), ...extra });
  }

  private newlineAt(j: number): number {
    const c = this.src[j];
    if (c === '\n') return 1;
    if (c === '\r') return this.src[j + 1] === '\n' ? 2 : 1;
    return 0;
  }

  private consumeNewline(): void {
    this.i += this.newlineAt(this.i);
    this.line++;
    this.lineStart = this.i;
  }

  run(): Token[] {
    const src = this.src;
    let atLineStart = true;
    while (this.i < src.length) {
      if (atLineStart && this.depth === 0) {
        if (!this.indentation()) continue; // blank or comment-only line consumed
        atLineStart = false;
      }
      const c = src[this.i];
      if (c === ' ' || c === '\t' || c === '\f') {
        this.i++;
        continue;
      }
      if (c === '#') {
        while (this.i < src.length && !this.newlineAt(this.i)) this.i++;
        continue;
      }
      const nl = this.newlineAt(this.i);
      if (nl) {
        const start = this.here();
        this.i += nl;
        if (this.depth === 0) {
          this.tokens.push({ kind: 'newline', value: '\n', span: this.span(...start) });
          atLineStart = true;
        }
        this.line++;
        this.lineStart = this.i;
        continue;
      }
      if (c === '\\') {
        const start = this.here();
        if (this.newlineAt(this.i + 1)) {
          this.i++;
          this.consumeNewline();
          continue;
        }
        this.i++;
        throw lexicalError(this.span(...start), 'unexpected character after line continuation character');
      }
      if (ID_START.test(c)) {
        this.nameOrString();
        continue;
      }
      if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[this.i + 1] ?? ''))) {
        this.number();
        continue;
      }
      if (c === '"' || c === "'") {
        this.string(this.here(), '');
        continue;
      }
      this.operator();
    }
    // End of input: close the last logical line and every open block.
    const end = this.here();
    const last = this.tokens[this.tokens.length - 1];
    // Inside an unclosed bracket the parser should see the end of file, not a line end.
    if (last && last.kind !== 'newline' && last.kind !== 'dedent' && this.depth === 0) {
      this.tokens.push({ kind: 'newline', value: '', span: this.span(...end) });
    }
    while (this.indents.length > 1) {
      this.indents.pop();
      this.tokens.push({ kind: 'dedent', value: '', span: this.span(...end) });
    }
    this.tokens.push({ kind: 'eof', value: '', span: this.span(...end) });
    return this.tokens;
  }

  /**
   * Measures the indentation of a new logical line and emits INDENT/DEDENT.
   * Returns false when the line is blank or holds only a comment (consumed).
   */
  private indentation(): boolean {
    const src = this.src;
    let width = 0;
    let j = this.i;
    for (; j < src.length; j++) {
      const c = src[j];
      if (c === ' ') width++;
      else if (c === '\t') width += 8 - (width % 8);
      else if (c === '\f') width = 0;
      else break;
    }
    if (j >= src.length) {
      this.i = j;
      return false;
    }
    if (src[j] === '#' || this.newlineAt(j)) {
      this.i = j;
      while (this.i < src.length && !this.newlineAt(this.i)) this.i++;
      if (this.i < src.length) this.consumeNewline();
      return false;
    }
    this.i = j;
    const top = this.indents[this.indents.length - 1];
    const start: [number, number, number] = [this.lineStart, this.line, 1];
    if (width > top) {
      this.indents.push(width);
      this.push('indent', '', start);
    } else if (width < top) {
      while (width < this.indents[this.indents.length - 1]) {
        this.indents.pop();
        this.push('dedent', '', start);
      }
      if (width !== this.indents[this.indents.length - 1]) {
        throw lexicalError(this.span(...start), 'unindent does not match any outer indentation level');
      }
    }
    return true;
  }

  private nameOrString(): void {
    const src = this.src;
    const start = this.here();
    let j = this.i + 1;
    while (j < src.length && ID_CONT.test(src[j])) j++;
    const word = src.slice(this.i, j);
    if ((src[j] === '"' || src[j] === "'") && STRING_PREFIX.test(word)) {
      this.i = j;
      this.string(start, word.toLowerCase());
      return;
    }
    this.i = j;
    const keyword = KEYWORDS.has(word) || (word === 'print' && !this.features.printFunction);
    this.push(keyword ? 'keyword' : 'name', word, start);
  }

  private number(): void {
    const src = this.src;
    const start = this.here();
    let j = this.i;
    let digits: string;
    let radix: bigint = 10n;
    const lower = src.slice(j, j + 2).toLowerCase();
    if (lower === '0x' || lower === '0o' || lower === '0b') {
      radix = lower === '0x' ? 16n : lower === '0o' ? 8n : 2n;
      j += 2;
      const re = radix === 16n ? /[0-9a-fA-F]/ : radix === 8n ? /[0-7]/ : /[01]/;
      const from = j;
      while (j < src.length && re.test(src[j])) j++;
      digits = src.slice(from, j);
    } else {
      const from = j;
      while (j < src.length && /[0-9]/.test(src[j])) j++;
      digits = src.slice(from, j);
      const next = src[j] ?? '';
      if (next === '.' || next === 'e' || next === 'E' || next === 'j' || next === 'J') {
        while (j < src.length && /[0-9._eEjJ+-]/.test(src[j]) && !(src[j] === '.' && src[j + 1] === '.')) {
          if ((src[j] === '+' || src[j] === '-') && !/[eE]/.test(src[j - 1])) break;
          j++;
        }
        this.i = j;
        throw unsupportedConstruct(this.span(...start), 'floating-point and complex numbers');
      }
    }
    const long = src[j] === 'L' || src[j] === 'l'; // Python 2's long literal suffix
    if (long) j++;
    this.i = j;
    const span = this.span(...start);
    if (j < src.length && ID_CONT.test(src[j])) {
      while (this.i < src.length && ID_CONT.test(src[this.i])) this.i++;
      throw lexicalError(this.span(...start), `invalid number literal '${src.slice(start[0], this.i)}'`);
    }
    if (digits === '') throw lexicalError(span, `invalid number literal '${src.slice(start[0], j)}'`);
    let clean = digits;
    if (radix === 10n && digits.length > 1 && digits[0] === '0') {
      // Python 2: a leading 0 makes an octal number (0777 is 511).
      if (/[89]/.test(digits)) throw lexicalError(span, `invalid token '${src.slice(start[0], j)}': a leading 0 makes an octal number`);
      radix = 8n;
      clean = digits.slice(1);
    }
    // A decimal digit carries log2(10) < 3.33 bits; refuse before converting.
    const approxBits = radix === 10n ? clean.length * 3.33 : clean.length * Math.log2(Number(radix));
    if (approxBits > MAX_INT_BITS + 4) throw intTooLarge(span, MAX_INT_BITS);
    const prefix = radix === 16n ? '0x' : radix === 8n ? '0o' : radix === 2n ? '0b' : '';
    const num = BigInt(prefix + clean);
    this.push('number', src.slice(start[0], j), start, long ? { num, long } : { num });
  }

  private string(start: [number, number, number], prefix: string): void {
    const src = this.src;
    const quote = src[this.i];
    const triple = src.startsWith(quote.repeat(3), this.i);
    const close = triple ? quote.repeat(3) : quote;
    this.i += close.length;
    const raw = prefix.includes('r');
    const unicode = prefix.includes('u') || (this.features.unicodeLiterals === true && !prefix.includes('b'));
    // The source's own non-ASCII characters: its bytes in a byte string; in a unicode literal, its
    // text under a UTF-8 coding and one character per byte under Latin-1 (source-encoding.ts).
    const own = (ch: string) => (unicode && this.coding === 'utf-8' ? ch : utf8Bytes(ch));
    let out = '';
    for (;;) {
      if (this.i >= src.length) {
        throw lexicalError(this.span(...start), triple ? 'unterminated triple-quoted string' : 'unterminated string literal');
      }
      if (src.startsWith(close, this.i)) {
        this.i += close.length;
        break;
      }
      const c = src[this.i];
      const nl = this.newlineAt(this.i);
      if (nl) {
        if (!triple) throw lexicalError(this.span(...start), 'unterminated string literal');
        out += '\n';
        this.consumeNewline();
        continue;
      }
      if (c === '\\') {
        const n = src[this.i + 1];
        if (n === undefined) {
          this.i++;
          continue;
        }
        if (this.newlineAt(this.i + 1)) {
          // Backslash-newline inside a string: a continuation, nothing is added (kept in raw strings).
          if (raw) out += '\\\n';
          this.i++;
          this.consumeNewline();
          continue;
        }
        // A raw string keeps its backslashes, except that a raw unicode one decodes \u and \U.
        if (raw && !(unicode && (n === 'u' || n === 'U'))) {
          const next = String.fromCodePoint(src.codePointAt(this.i + 1)!);
          out += c + (next < '\x80' ? next : own(next));
          this.i += 1 + next.length;
          continue;
        }
        if (n >= '\x80') {
          // Not an escape: the backslash stays, and the character after it is the source's own.
          const next = String.fromCodePoint(src.codePointAt(this.i + 1)!);
          out += c + own(next);
          this.i += 1 + next.length;
          continue;
        }
        out += this.escape(unicode);
        continue;
      }
      if (c < '\x80') {
        out += c;
        this.i++;
      } else {
        const ch = String.fromCodePoint(src.codePointAt(this.i)!);
        out += own(ch);
        this.i += ch.length;
      }
    }
    this.push('string', src.slice(start[0], this.i), start, { str: out, fstring: prefix.includes('f'), ...(unicode ? { unicode } : {}) });
  }

  /**
   * The escape at the backslash at `this.i`, decoded as Python 2 decodes it
   * (moving past it): one-letter escapes, up to three octal digits, `\xhh`
   * with exactly two hex digits; in a unicode literal also `\uXXXX`,
   * `\UXXXXXXXX` and `\N{NAME}`. Any other backslash stays in the string.
   */
  private escape(unicode: boolean): string {
    const src = this.src;
    const at = this.here();
    const n = src[this.i + 1];
    this.i += 2;
    const bad = (why: string) => lexicalError(this.span(...at), why);
    const simple = SIMPLE_ESCAPES.get(n);
    if (simple !== undefined) return simple;
    if (n >= '0' && n <= '7') {
      const digits = /^[0-7]{1,3}/.exec(src.slice(this.i - 1, this.i + 2))![0];
      this.i += digits.length - 1;
      const v = parseInt(digits, 8);
      // A byte string keeps the low byte of \777, as CPython 2 does; a unicode one the code point.
      return String.fromCharCode(unicode ? v : v & 0xff);
    }
    const hex = (len: number): number | undefined => {
      const h = src.slice(this.i, this.i + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(h)) return undefined;
      this.i += len;
      return parseInt(h, 16);
    };
    if (n === 'x') {
      const v = hex(2);
      if (v === undefined) throw bad(unicode ? 'truncated \\xXX escape (\\x takes two hex digits)' : 'invalid \\x escape (\\x takes two hex digits)');
      return String.fromCharCode(v);
    }
    if (!unicode || (n !== 'u' && n !== 'U' && n !== 'N')) return `\\${n}`;
    if (n === 'N') {
      const m = /^\{([^}]*)\}/.exec(src.slice(this.i, this.i + 100));
      if (!m) throw bad('malformed \\N character escape (write \\N{NAME})');
      this.i += m[0].length;
      const cp = unicodeCharacter(m[1]);
      if (cp === undefined) throw bad(`unknown Unicode character name '${m[1]}'`);
      return String.fromCodePoint(cp);
    }
    const len = n === 'u' ? 4 : 8;
    const v = hex(len);
    if (v === undefined) throw bad(`truncated \\${n}${'X'.repeat(len)} escape`);
    if (v > 0x10ffff) throw bad(`illegal Unicode character \\${n}${v.toString(16).padStart(len, '0')} (past U+10FFFF)`);
    return String.fromCodePoint(v);
  }

  private operator(): void {
    const src = this.src;
    const start = this.here();
    for (const op of OPERATORS) {
      if (src.startsWith(op, this.i)) {
        this.i += op.length;
        if (op === '(' || op === '[' || op === '{') this.depth++;
        else if (op === ')' || op === ']' || op === '}') this.depth = Math.max(0, this.depth - 1);
        this.push('op', op, start);
        return;
      }
    }
    const ch = String.fromCodePoint(src.codePointAt(this.i)!);
    this.i += ch.length;
    throw lexicalError(this.span(...start), `unexpected character '${ch}'`);
  }
}
