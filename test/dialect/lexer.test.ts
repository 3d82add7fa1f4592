import { describe, expect, it } from 'vitest';
import { SpecError } from '../../src/core/dialect/errors.ts';
import { lex } from '../../src/core/dialect/lexer.ts';

const kinds = (src: string) => lex(src).map((t) => (t.kind === 'op' || t.kind === 'name' || t.kind === 'keyword' ? t.value : t.kind));

function lexError(src: string): SpecError {
  try {
    lex(src);
  } catch (e) {
    if (e instanceof SpecError) return e;
    throw e;
  }
  throw new Error('expected a lexical error');
}

describe('lexer', () => {
  it('emits INDENT/DEDENT and NEWLINE for blocks, skipping blank and comment lines', () => {
    const src = 'def f(x):\n    # comment\n\n    if x:\n        return 1\n    return 2\n';
    expect(kinds(src)).toEqual([
      'def', 'f', '(', 'x', ')', ':', 'newline',
      'indent', 'if', 'x', ':', 'newline',
      'indent', 'return', 'number', 'newline',
      'dedent', 'return', 'number', 'newline',
      'dedent', 'eof',
    ]);
  });

  it('joins lines inside brackets and after a backslash', () => {
    expect(kinds('x = f(1,\n      2)\ny = 1 + \\\n  2\n')).toEqual([
      'x', '=', 'f', '(', 'number', ',', 'number', ')', 'newline',
      'y', '=', 'number', '+', 'number', 'newline', 'eof',
    ]);
  });

  it('reads integer literals as bigints in every base, with underscores and the Python 2 L suffix', () => {
    const nums = lex('0x8000000000000E1F 0o17 0b101 1_000 18446744073709551615L 0\n')
      .filter((t) => t.kind === 'number')
      .map((t) => t.num);
    expect(nums).toEqual([0x8000000000000e1fn, 15n, 5n, 1000n, 18446744073709551615n, 0n]);
  });

  it('decodes strings, including prefixes, escapes, adjacent parts and triple quotes', () => {
    const strs = lex(`a = 'x\\ty' r'\\n' b"q"\n"""doc\nline"""\n`)
      .filter((t) => t.kind === 'string')
      .map((t) => t.str);
    expect(strs).toEqual(['x\ty', '\\n', 'q', 'doc\nline']);
  });

  it('gives every token a 1-based span with offsets', () => {
    const toks = lex('x = 1\n  # c\nyy = old.procs\n');
    const yy = toks.find((t) => t.value === 'yy')!;
    expect(yy.span).toEqual({ line: 3, column: 1, endLine: 3, endColumn: 3, offset: 12, endOffset: 14 });
    const procs = toks.find((t) => t.value === 'procs')!;
    expect(procs.span).toMatchObject({ line: 3, column: 10, endColumn: 15 });
  });

  it('reports lexical errors with their positions', () => {
    const a = lexError('x = 1 ? 2\n');
    expect([a.code, a.message, a.span.line, a.span.column]).toEqual(['SPEC001', "unexpected character '?'", 1, 7]);
    const b = lexError('if x:\n    y = 1\n  z = 2\n');
    expect([b.code, b.message, b.span.line]).toEqual(['SPEC001', 'unindent does not match any outer indentation level', 3]);
    const c = lexError('s = "abc\n');
    expect([c.code, c.message, c.span.column]).toEqual(['SPEC001', 'unterminated string literal', 5]);
    const d = lexError('x = 3.25\n');
    expect([d.code, d.message]).toEqual(['SPEC003', 'floating-point and complex numbers are not supported in specs']);
    const e = lexError('x = 012\n');
    expect(e.code).toBe('SPEC001');
  });

  it('refuses absurdly long integer literals instead of converting them', () => {
    const e = lexError(`x = 1${'0'.repeat(5000)}\n`);
    expect(e.code).toBe('SPEC028');
  });

  it('handles CRLF line endings and a missing final newline', () => {
    expect(kinds('x = 1\r\ny = 2')).toEqual(['x', '=', 'number', 'newline', 'y', '=', 'number', 'newline', 'eof']);
  });
});
