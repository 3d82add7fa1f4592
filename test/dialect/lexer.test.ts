import { beforeAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../src/core/dialect/errors.ts';
import { lex } from '../../src/core/dialect/lexer.ts';
import { loadNameFilter } from '../../src/core/dialect/unicode-names.ts';

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
  // `\N{...}` escapes look names up in the Unicode name filter, loaded on demand (test/dialect/unicode-names.test.ts).
  beforeAll(() => loadNameFilter());

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

  it('reads integer literals as bigints in every base, with Python 2 octals and the L suffix', () => {
    const nums = lex('0x8000000000000E1F 0o17 0b101 0777 0777L 00 18446744073709551615L 0\n')
      .filter((t) => t.kind === 'number')
      .map((t) => t.num);
    expect(nums).toEqual([0x8000000000000e1fn, 15n, 5n, 511n, 511n, 0n, 18446744073709551615n, 0n]);
  });

  it('decodes strings, including prefixes, escapes, adjacent parts and triple quotes', () => {
    const strs = lex(`a = 'x\\ty' r'\\n' b"q"\n"""doc\nline"""\n`)
      .filter((t) => t.kind === 'string')
      .map((t) => t.str);
    expect(strs).toEqual(['x\ty', '\\n', 'q', 'doc\nline']);
  });

  it('decodes escapes as Python 2 does: \\u, \\U and \\N{} only in unicode literals; ur decodes only \\u and \\U', () => {
    const strs = (src: string) => lex(src).filter((t) => t.kind === 'string').map((t) => t.str);
    expect(strs(String.raw`'\101\x41\777\u0041\U00110000\N{EM DASH}\q' u'\u0041\U0001F600\101' ur'\u0041\n\\u0041' br'\n'` + '\n')).toEqual([
      'AA\xff\\u0041\\U00110000\\N{EM DASH}\\q', 'A\u{1F600}A', 'A\\n\\\\u0041', '\\n',
    ]);
    expect(strs(String.raw`u'\N{HANGUL SYLLABLE GA}\N{CJK UNIFIED IDEOGRAPH-4E00}\N{em dash}'` + '\n')).toEqual(['\uac00\u4e00\ufffd']);
    // unicode_literals (read from the module's future statements, future.ts) makes every literal a unicode one.
    expect(lex("x = '\\u0041'\n", { unicodeLiterals: true }).filter((t) => t.kind === 'string').map((t) => [t.str, t.unicode])).toEqual([['A', true]]);
    const bad = (src: string) => {
      const e = lexError(src);
      return [e.code, e.message, e.span.column, e.span.endColumn];
    };
    expect(bad(String.raw`x = '\x4'` + '\n')).toEqual(['SPEC001', 'invalid \\x escape (\\x takes two hex digits)', 6, 8]);
    expect(bad(String.raw`x = u'ab\N{DASH}'` + '\n')).toEqual(['SPEC001', "unknown Unicode character name 'DASH'", 9, 17]);
    expect(bad(String.raw`x = u'\Uffffffff'` + '\n')).toEqual(['SPEC001', 'illegal Unicode character \\Uffffffff (past U+10FFFF)', 7, 17]);
    expect(bad(String.raw`x = u'\u12'` + '\n')[1]).toBe('truncated \\uXXXX escape');
    expect(bad(String.raw`x = u'\N{CJK UNIFIED IDEOGRAPH-9FCC}'` + '\n')[1]).toBe("unknown Unicode character name 'CJK UNIFIED IDEOGRAPH-9FCC'");
  });

  it('knows Python 2 tokens: print and exec keywords, <>, backquotes, a leading byte-order mark, ASCII names', () => {
    expect(kinds('print x <> `y`\n')).toEqual(['print', 'x', '<>', '`', 'y', '`', 'newline', 'eof']);
    expect(lex('print x\n')[0].kind).toBe('keyword');
    expect(lex('print(x)\n', { printFunction: true }).find((t) => t.value === 'print')!.kind).toBe('name');
    expect(lex('exec x\n')[0].kind).toBe('keyword');
    const bom = lex('\ufeffx = 1\n');
    expect(bom[0].span).toMatchObject({ line: 1, column: 1, offset: 1 });
    expect(lexError('\u00e9 = 1\n').message).toMatch(/^non-ASCII character U\+00E9 but no encoding declared/);
    expect(lexError('# coding: utf-8\n\u00e9 = 1\n').message).toBe("unexpected character '\u00e9'");
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
    const e = lexError('x = 089\n');
    expect([e.code, e.message]).toEqual(['SPEC001', "invalid token '089': a leading 0 makes an octal number"]);
    // Python 2 has no digit separators.
    expect(lexError('x = 1_000\n').message).toBe("invalid number literal '1_000'");
  });

  it('refuses absurdly long integer literals instead of converting them', () => {
    const e = lexError(`x = 1${'0'.repeat(5000)}\n`);
    expect(e.code).toBe('SPEC028');
  });

  it('handles CRLF line endings and a missing final newline', () => {
    expect(kinds('x = 1\r\ny = 2')).toEqual(['x', '=', 'number', 'newline', 'y', '=', 'number', 'newline', 'eof']);
  });
});
