/**
 * The tokens of the spec dialect (Python's token set, minus what specs never
 * need). INDENT and DEDENT carry block structure as in CPython's tokenizer.
 */
import type { Span } from '../span.ts';

export type TokenKind =
  | 'name' // identifiers (keywords are 'keyword')
  | 'keyword'
  | 'number' // `num` holds the value
  | 'string' // `str` holds the decoded text
  | 'op' // operators and delimiters, `value` is the spelling
  | 'newline' // end of a logical line
  | 'indent'
  | 'dedent'
  | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The source spelling (for strings: the raw literal). */
  readonly value: string;
  readonly span: Span;
  /** number: the integer value. */
  readonly num?: bigint;
  /** number: a long literal (`10L`). */
  readonly long?: boolean;
  /** string: the decoded contents (bytes, one character 0-255 each, unless `unicode`). */
  readonly str?: string;
  /** string: a unicode literal (its contents are text). */
  readonly unicode?: boolean;
  /** string: an f-string (rejected by the parser). */
  readonly fstring?: boolean;
}

/**
 * Keywords: Python 2.7's (`exec` among them; `print` too, unless the module
 * imports print_function, which the lexer decides), and Python 3's
 * `True`, `False`, `None`, `async`, `await` and `nonlocal`, which no spec
 * uses as a name.
 */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue',
  'def', 'del', 'elif', 'else', 'except', 'exec', 'finally', 'for', 'from', 'global', 'if', 'import', 'in',
  'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
]);

/** Operators and delimiters, longest first so that the lexer can match greedily. */
export const OPERATORS: readonly string[] = [
  '**=', '//=', '>>=', '<<=', '...',
  '->', ':=', '**', '//', '<<', '>>', '<=', '>=', '==', '!=', '<>', '+=', '-=', '*=', '/=', '%=', '&=',
  '|=', '^=', '@=',
  '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '(', ')', '[', ']', '{', '}', ',',
  ':', '.', ';', '=', '`',
];

/** How a token is named in "expected X but found Y" messages. */
export function describeToken(t: Token): string {
  switch (t.kind) {
    case 'name':
      return `name '${t.value}'`;
    case 'keyword':
      return `keyword '${t.value}'`;
    case 'number':
      return `number ${t.value}`;
    case 'string':
      return 'a string';
    case 'op':
      return `'${t.value}'`;
    case 'newline':
      return 'end of line';
    case 'indent':
      return 'an indented block';
    case 'dedent':
      return 'end of block';
    case 'eof':
      return 'end of file';
  }
}
