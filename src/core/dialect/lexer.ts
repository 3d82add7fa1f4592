/**
 * Turns spec text into tokens, following the tokenizer of CPython 2.7 (the
 * Python hv6 runs): logical lines end in NEWLINE, indentation changes become
 * INDENT/DEDENT, newlines inside brackets and after a backslash join lines,
 * comments vanish, a UTF-8 byte-order mark at the start is skipped. Names
 * are ASCII; `print` is a keyword unless `from __future__ import
 * print_function` is given. Integer literals (`0777` is octal) become
 * bigints; floats and complex numbers are rejected. Strings decode as
 * Python 2 decodes them: `\u`, `\U` and `\N{...}` only in unicode
 * literals (`u''`, `ur''`, or every literal under `unicode_literals`).
 */
import type { Span } from '../span.ts';
import { intTooLarge, lexicalError, unsupportedConstruct } from './errors.ts';
import { KEYWORDS, OPERATORS, type Token } from './tokens.ts';
import { unicodeCharacter } from './unicode-names.ts';

/** Python ints beyond this many bits are refused everywhere (no hangs on huge literals). */
export const MAX_INT_BITS = 4096;

const ID_START = /[A-Za-z_]/;
const ID_CONT = /[A-Za-z0-9_]/;
// Python 2.7's prefixes, and the f-string ones (refused by the parser with their own message).
const STRING_PREFIX = /^(r|u|ur|b|br|f|fr|rf)$/i;
/** PEP 263's encoding declaration: a comment-only line naming a coding. */
const CODING_LINE = /^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+/;
const BLANK_OR_COMMENT = /^[ \t\f]*(#.*)?\r?$/;

/**
 * Whether line 1, or line 2 below a blank or comment-only line 1, declares
 * the encoding (CPython 2.7 reads no further). The encoding's name is not
 * checked: the dialect reads the text as given.
 */
function encodingDeclared(src: string): boolean {
  const [first = '', second = ''] = src.split('\n', 2);
  return CODING_LINE.test(first) || (BLANK_OR_COMMENT.test(first) && CODING_LINE.test(second));
}
/** `from __future__ import a, b` lines: which features a module turns on (print_function, unicode_literals). */
const FUTURE_IMPORT = /^[ \t]*from[ \t]+__future__[ \t]+import[ \t]+\(?([\w \t,]*)/gm;

/** The one-letter escapes of a string literal (`\n` is a newline); octal digits are escapes of their own. */
const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['n', '\n'], ['t', '\t'], ['r', '\r'], ['\\', '\\'], ["'", "'"], ['"', '"'], ['a', '\x07'], ['b', '\b'], ['f', '\f'], ['v', '\v'],
]);

export function lex(source: string): Token[] {
  return new Lexer(source).run();
}

class Lexer {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private depth = 0;
  private readonly tokens: Token[] = [];
  private readonly indents = [0];
  /** `print` is a name, not the print statement. */
  private readonly printFunction: boolean;
  /** Every string literal is a unicode literal. */
  private readonly unicodeLiterals: boolean;

  constructor(private readonly src: string) {
    const features = new Set<string>();
    for (const m of src.matchAll(FUTURE_IMPORT)) for (const f of m[1].split(',')) features.add(f.trim());
    this.printFunction = features.has('print_function');
    this.unicodeLiterals = features.has('unicode_literals');
    // A UTF-8 byte-order mark declares the encoding (PEP 263); it takes no column.
    const bom = src.startsWith('\ufeff');
    if (bom) this.i = this.lineStart = 1;
    this.checkSourceBytes(bom);
  }

  /**
   * Python 2.7 refuses a source file with a NUL byte, and one with a
   * non-ASCII character (even in a comment or a string) unless a byte-order
   * mark or a coding line on line 1 or 2 declares the encoding (PEP 263).
   * hv6's harness writes the spec into a file with no coding line, so such
   * an answer never evaluates upstream.
   */
  private checkSourceBytes(declared: boolean): void {
    const nul = this.src.indexOf('\0');
    if (nul >= 0) throw lexicalError(this.spanAt(nul), 'source text cannot contain a NUL byte (Python 2 refuses the file)');
    if (declared || encodingDeclared(this.src)) return;
    const bad = this.src.search(/[^\x00-\x7f]/);
    if (bad < 0) return;
    const ch = this.src.codePointAt(bad)!;
    throw lexicalError(
      this.spanAt(bad),
      `non-ASCII character U+${ch.toString(16).toUpperCase().padStart(4, '0')} but no encoding declared (Python 2 reads source as ASCII unless a coding line on line 1 or 2 names the encoding, PEP 263)`,
    );
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
    const keyword = KEYWORDS.has(word) || (word === 'print' && !this.printFunction);
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
    if (src[j] === 'L' || src[j] === 'l') j++; // Python 2 long literal suffix
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
    this.push('number', src.slice(start[0], j), start, { num });
  }

  private string(start: [number, number, number], prefix: string): void {
    const src = this.src;
    const quote = src[this.i];
    const triple = src.startsWith(quote.repeat(3), this.i);
    const close = triple ? quote.repeat(3) : quote;
    this.i += close.length;
    const raw = prefix.includes('r');
    const unicode = prefix.includes('u') || (this.unicodeLiterals && !prefix.includes('b'));
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
          out += c + n;
          this.i += 2;
          continue;
        }
        out += this.escape(unicode);
        continue;
      }
      out += c;
      this.i++;
    }
    this.push('string', src.slice(start[0], this.i), start, { str: out, fstring: prefix.includes('f') });
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
