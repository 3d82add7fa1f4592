/**
 * Turns spec text into tokens, following CPython's tokenizer: logical lines
 * end in NEWLINE, indentation changes become INDENT/DEDENT, newlines inside
 * brackets and after a backslash join lines, comments vanish. Integer
 * literals become bigints; floats and complex numbers are rejected.
 */
import type { Span } from '../span.ts';
import { intTooLarge, lexicalError, unsupportedConstruct } from './errors.ts';
import { KEYWORDS, OPERATORS, type Token } from './tokens.ts';

/** Python ints beyond this many bits are refused everywhere (no hangs on huge literals). */
export const MAX_INT_BITS = 4096;

const ID_START = /[\p{L}_]/u;
const ID_CONT = /[\p{L}\p{N}_]/u;
const STRING_PREFIX = /^(r|u|b|f|br|rb|fr|rf)$/i;

/** The one-character escapes of a string literal (`\n` is a newline). */
const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['n', '\n'], ['t', '\t'], ['r', '\r'], ['\\', '\\'], ["'", "'"], ['"', '"'], ['a', '\x07'], ['b', '\b'], ['f', '\f'], ['v', '\v'], ['0', '\0'],
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

  constructor(private readonly src: string) {}

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
    this.push(KEYWORDS.has(word) ? 'keyword' : 'name', word, start);
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
      const re = radix === 16n ? /[0-9a-fA-F_]/ : radix === 8n ? /[0-7_]/ : /[01_]/;
      const from = j;
      while (j < src.length && re.test(src[j])) j++;
      digits = src.slice(from, j);
    } else {
      const from = j;
      while (j < src.length && /[0-9_]/.test(src[j])) j++;
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
    if (digits === '' || digits.startsWith('_') || digits.endsWith('_') || digits.includes('__')) {
      throw lexicalError(span, `invalid number literal '${src.slice(start[0], j)}'`);
    }
    const clean = digits.replace(/_/g, '');
    if (radix === 10n && clean.length > 1 && clean[0] === '0' && /[1-9]/.test(clean)) {
      throw lexicalError(span, 'leading zeros in decimal integer literals are not permitted; use 0o for octal');
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
        if (raw) {
          out += c + n;
          this.i += 2;
          continue;
        }
        this.i += 2;
        out += this.escape(n);
        continue;
      }
      out += c;
      this.i++;
    }
    this.push('string', src.slice(start[0], this.i), start, { str: out, fstring: prefix.includes('f') });
  }

  private escape(n: string): string {
    const simple = SIMPLE_ESCAPES.get(n);
    if (simple !== undefined) return simple;
    const hex = (len: number) => {
      const h = this.src.slice(this.i, this.i + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(h)) return undefined;
      this.i += len;
      return String.fromCodePoint(parseInt(h, 16));
    };
    const r = n === 'x' ? hex(2) : n === 'u' ? hex(4) : n === 'U' ? hex(8) : undefined;
    return r ?? `\\${n}`;
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
