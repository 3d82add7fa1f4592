/**
 * Preprocessor, lexer and parser: token streams, macro expansion, the
 * conditionals, and the spans every token and node carries (into the
 * ORIGINAL file text, with macro-expanded tokens at the macro use).
 */
import { describe, expect, it } from 'vitest';
import {
  type CSpan, type Expr, type FunctionDef, type Stmt, execFunction, freshMemory, intLiteral, lex, parse, parseExpression,
  parseProgram, preprocess, printExpr, printStmt,
} from '../../src/core/c/index.ts';
import { bvConst, bvValue } from '../../src/core/smt/term.ts';
import { OBJECT_PROTOTYPE_NAMES } from '../object-prototype.ts';

const files = (o: Record<string, string>) => new Map(Object.entries(o));

/** The text of the preprocessed unit, tokens joined by spaces. */
function ppText(src: Record<string, string>, unit = 'main.c'): string {
  const r = preprocess(files(src), unit);
  if (r.errors.length) throw new Error(r.errors.map((e) => `${e.code} ${e.message}`).join('\n'));
  return r.tokens.filter((t) => t.kind !== 'eof').map((t) => t.text).join(' ');
}

function ppErrors(src: Record<string, string>, unit = 'main.c') {
  return preprocess(files(src), unit).errors.map((e) => ({ code: e.code, file: e.file, line: e.span.line, column: e.span.column, message: e.message }));
}

/** The source text a span covers. */
function slice(text: string, s: CSpan): string {
  return text.slice(s.offset, s.endOffset);
}

function parseUnit(text: string, extra: Record<string, string> = {}) {
  const pp = preprocess(files({ 'main.c': text, ...extra }), 'main.c');
  expect(pp.errors).toEqual([]);
  const r = parse('main.c', pp.tokens);
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.unit;
}

function parseErr(text: string) {
  const pp = preprocess(files({ 'main.c': text }), 'main.c');
  if (pp.errors.length) return pp.errors[0];
  const r = parse('main.c', pp.tokens);
  if (r.ok) throw new Error('expected a parse error');
  return r.errors[0];
}

function exprOf(text: string, typedefs: string[] = []): Expr {
  const { tokens } = lex('e.c', text);
  return parseExpression(tokens, typedefs);
}

describe('lexer', () => {
  it('splits tokens and gives 1-based lines/columns and 0-based offsets', () => {
    const text = 'int x;\n  y->z <<= 0x1fUL; /* c\n */ a\'\\n\'';
    const { tokens, errors } = lex('f.c', text);
    expect(errors).toEqual([]);
    expect(tokens.map((t) => `${t.kind}:${t.text}`)).toEqual([
      'ident:int', 'ident:x', 'punct:;', 'ident:y', 'punct:->', 'ident:z', 'punct:<<=', 'number:0x1fUL', 'punct:;',
      'ident:a', "char:'\\n'", 'eof:',
    ]);
    const shl = tokens[6];
    expect(shl.span).toEqual({ file: 'f.c', line: 2, column: 8, endLine: 2, endColumn: 11, offset: 14, endOffset: 17 });
    expect(tokens[9].span.line).toBe(3);
    expect(tokens[9].bol).toBe(false); // a newline inside a comment does not start a line
    expect(tokens[3].bol).toBe(true);
  });

  it('splices backslash-newlines away, inside names and operators too, with spans into the raw text', () => {
    const { tokens } = lex('f.c', '#define A 1 \\\n + 2\nB');
    expect(tokens.map((t) => [t.text, t.bol])).toEqual([
      ['#', true], ['define', false], ['A', false], ['1', false], ['+', false], ['2', false], ['B', true], ['', true],
    ]);
    const text = 'int fo\\\no = 1 <\\\r\n< 2; // a \\\n comment\nx';
    const spliced = lex('g.c', text).tokens;
    expect(spliced.map((t) => t.text)).toEqual(['int', 'foo', '=', '1', '<<', '2', ';', 'x', '']);
    expect(slice(text, spliced[1].span)).toBe('fo\\\no');
    expect(spliced[1].span).toMatchObject({ line: 1, column: 5, endLine: 2, endColumn: 2 });
    expect(slice(text, spliced[4].span)).toBe('<\\\r\n<');
    expect(spliced[7].span).toMatchObject({ line: 5, column: 1 });
  });

  it('reports unexpected characters and unterminated comments with spans', () => {
    const { errors } = lex('f.c', 'a @ b /* open');
    expect(errors.map((e) => [e.code, e.span.column, e.message])).toEqual([
      ['C010', 3, "unexpected character '@'"],
      ['C011', 7, 'unterminated comment'],
    ]);
  });

  it('decodes integer literals with their suffixes', () => {
    expect(intLiteral('0x1UL')).toEqual({ ok: true, value: 1n, decimal: false, unsigned: true, longs: 1 });
    expect(intLiteral('42')).toEqual({ ok: true, value: 42n, decimal: true, unsigned: false, longs: 0 });
    expect(intLiteral('017')).toMatchObject({ ok: true, value: 15n, decimal: false });
    expect(intLiteral('18446744073709551615ULL')).toMatchObject({ ok: true, value: (1n << 64n) - 1n, longs: 2 });
    expect(intLiteral('1.5')).toEqual({ ok: false, why: 'floating-point numbers are not supported' });
    expect(intLiteral('1lL')).toEqual({ ok: false, why: "bad suffix 'lL'" });
    expect(intLiteral('18446744073709551616')).toEqual({ ok: false, why: 'too large for 64 bits' });
  });
});

describe('preprocessor', () => {
  it('includes headers once behind their guards, and resolves next to the includer', () => {
    const src = {
      'main.c': '#include "inc/a.h"\n#include "inc/a.h"\nint m;',
      'inc/a.h': '#ifndef A_H\n#define A_H\n#include "b.h"\nint a;\n#endif',
      'inc/b.h': '#pragma once\nint b;',
    };
    expect(ppText(src)).toBe('int b ; int a ; int m ;');
    const r = preprocess(files(src), 'main.c');
    expect(r.files).toEqual(['main.c', 'inc/a.h', 'inc/b.h']);
    const b = r.tokens.find((t) => t.text === 'b')!;
    expect(b.span).toMatchObject({ file: 'inc/b.h', line: 2, column: 5 });
  });

  it('expands object-like and nested function-like macros, without re-expanding a macro in itself', () => {
    const src = {
      'main.c': [
        '#define N 4',
        '#define SQ(x) ((x) * (x))',
        '#define TWICE(x) (SQ(x) + SQ(N))',
        '#define foo foo + 1',
        '#define F(a, b) a ## b',
      ].slice(0, 4).join('\n') + '\nTWICE(y + 1) foo SQ N',
    };
    expect(ppText(src)).toBe('( ( ( y + 1 ) * ( y + 1 ) ) + ( ( 4 ) * ( 4 ) ) ) foo + 1 SQ 4');
  });

  it('passes macro arguments with nested parentheses and commas inside them', () => {
    expect(ppText({ 'main.c': '#define FIRST(a, b) a\n#define P(x) [x]\nFIRST(g(1, 2), 3) P(())' })).toBe('g ( 1 , 2 ) [ ( ) ]');
  });

  it('gives every token of an expansion the span of the macro use', () => {
    const text = '#define ADDR(p) ((p) & 0xff)\n#define K ADDR(q)\nint v = ADDR(x1) + K;';
    const r = preprocess(files({ 'main.c': text }), 'main.c');
    const use = text.indexOf('ADDR(x1)');
    const kUse = text.lastIndexOf('K');
    for (const t of r.tokens.filter((t) => ['(', 'x1', '&', '0xff', ')'].includes(t.text) && t.span.offset === use)) {
      expect(slice(text, t.span)).toBe('ADDR(x1)');
    }
    const q = r.tokens.find((t) => t.text === 'q')!;
    expect(q.span).toMatchObject({ line: 3, offset: kUse, endOffset: kUse + 1 });
    const x1 = r.tokens.find((t) => t.text === 'x1')!;
    expect(slice(text, x1.span)).toBe('ADDR(x1)');
  });

  it('handles #if 0, #ifdef, #ifndef, #elif, #else and defined()', () => {
    const text = [
      '#define TWO 2',
      '#if 0',
      'dropped \'unterminated',
      '#else',
      'kept1',
      '#endif',
      '#ifdef TWO',
      'kept2',
      '#endif',
      '#ifndef TWO',
      'dropped',
      '#elif defined(TWO) && TWO > 1',
      'kept3',
      '#else',
      'dropped',
      '#endif',
      '#if 1',
      '#if 0',
      'dropped',
      '#endif',
      'kept4',
      '#endif',
      'line __LINE__',
    ].join('\n');
    expect(ppText({ 'main.c': text })).toBe('kept1 kept2 kept3 kept4 line 23');
  });

  it('reports preprocessor errors with codes and spans', () => {
    expect(ppErrors({ 'main.c': '\n#include "nope.h"' })).toEqual([
      { code: 'C001', file: 'main.c', line: 2, column: 10, message: 'cannot find included file "nope.h"' },
    ]);
    expect(ppErrors({ 'main.c': '#include <stdio.h>' })[0]).toMatchObject({ code: 'C002', line: 1, column: 1 });
    expect(ppErrors({ 'main.c': '#if 1\nint x;' })[0]).toMatchObject({ code: 'C003', message: 'this conditional has no #endif' });
    expect(ppErrors({ 'main.c': '#endif' })[0]).toMatchObject({ code: 'C003', message: '#endif without #if' });
    expect(ppErrors({ 'main.c': '#define F(a, b) a\nF(1)' })[0]).toMatchObject({
      code: 'C005', line: 2, column: 1, message: "macro 'F' takes 2 arguments, got 1",
    });
    expect(ppErrors({ 'main.c': '#define F(a) x ## a' })[0]).toMatchObject({ code: 'C007', column: 16, message: "the '##' operator is not supported in macros" });
    expect(ppErrors({ 'main.c': '#define V(...) 1' })[0]).toMatchObject({ code: 'C007' });
    expect(ppErrors({ 'main.c': '#line 4' })[0]).toMatchObject({ code: 'C006', message: 'the directive #line is not supported' });
    expect(ppErrors({ 'main.c': '#error stop here' })[0]).toMatchObject({ code: 'C008', message: '#error stop here' });
    expect(ppErrors({ 'main.c': '#if 1 +\n#endif' })[0]).toMatchObject({ code: 'C004' });
    expect(ppErrors({ 'main.c': '#include "main.c"' })[0]).toMatchObject({ code: 'C009' });
  });
});

describe('parser', () => {
  const text = [
    '#define PTE_P 0x1UL',
    '#define PTE_ADDR(pte) ((pte) & 0x000FFFFFFFFFF000UL)',
    'typedef unsigned long u64;',
    'struct proc { u64 state : 64; u64 ofile[16]; struct { long prev; long next; } ready; };',
    'extern struct proc proc_table[64];',
    'static inline struct proc *get_proc(long pid)',
    '{',
    '    if (pid > 0 && pid < 64)',
    '        return &proc_table[pid];',
    '    return (struct proc *)0;',
    '}',
    'u64 f(u64 pte, int i)',
    '{',
    '    u64 x = PTE_ADDR(pte) | PTE_P;',
    '    for (int k = 0; k < 4; k++) {',
    '        if (k == i)',
    '            continue;',
    '        x += sizeof(struct proc) + sizeof x;',
    '    }',
    '    return get_proc(i)->ready.next ? x : ~x;',
    '}',
  ].join('\n');

  it('parses declarations and functions, with spans into the original text', () => {
    const unit = parseUnit(text);
    expect(unit.items.map((i) => i.kind)).toEqual(['declaration', 'declaration', 'declaration', 'function-def', 'function-def']);
    const getProc = unit.items[3] as FunctionDef;
    expect(slice(text, getProc.span)).toMatch(/^static inline struct proc \*get_proc\(long pid\)\n\{[\s\S]*\}$/);
    const ifs = getProc.body.items[0] as Extract<Stmt, { kind: 'if' }>;
    expect(slice(text, ifs.test.span)).toBe('pid > 0 && pid < 64');
    expect(ifs.test.span).toMatchObject({ line: 8, column: 9, endLine: 8, endColumn: 28 });
    const ret = ifs.then as Extract<Stmt, { kind: 'return' }>;
    expect(slice(text, ret.value!.span)).toBe('&proc_table[pid]');
  });

  it('gives nodes built from macro expansions the span of the macro use', () => {
    const unit = parseUnit(text);
    const f = unit.items[4] as FunctionDef;
    const decl = f.body.items[0] as Extract<Stmt, { kind: 'declaration' }>;
    const init = decl.declarators[0].init!;
    expect(init.kind).toBe('binary');
    expect(slice(text, init.span)).toBe('PTE_ADDR(pte) | PTE_P');
    const left = (init as Extract<Expr, { kind: 'binary' }>).left;
    expect(slice(text, left.span)).toBe('PTE_ADDR(pte)');
    // Every node inside the expansion has the use's span too.
    const inner = ((left as Extract<Expr, { kind: 'paren' }>).inner as Extract<Expr, { kind: 'binary' }>).left;
    expect(slice(text, inner.span)).toBe('PTE_ADDR(pte)');
  });

  it('prints statements and expressions back as C', () => {
    const unit = parseUnit(text);
    const f = unit.items[4] as FunctionDef;
    expect(printStmt(f.body)).toBe(
      [
        '{',
        '    u64 x = ((pte) & 0x000FFFFFFFFFF000UL) | 0x1UL;',
        '    for (int k = 0; k < 4; k++)',
        '    {',
        '        if (k == i)',
        '            continue;',
        '        x += sizeof(struct proc) + sizeof x;',
        '    }',
        '    return get_proc(i)->ready.next ? x : ~x;',
        '}',
      ].join('\n'),
    );
    expect(printExpr(exprOf('a - (b - c) * -d[i] + (e << 2 >> 1)'))).toBe('a - (b - c) * -d[i] + (e << 2 >> 1)');
    expect(printExpr(exprOf('(u8)x + sizeof(u8 *)', ['u8']))).toBe('(u8)x + sizeof(u8 *)');
  });

  it('tells a cast from a parenthesised expression by typedef names', () => {
    expect(exprOf('(t)-1', ['t']).kind).toBe('cast');
    expect(exprOf('(t)-1').kind).toBe('binary');
  });

  it('rejects constructs outside the subset with codes and spans', () => {
    const cases: [string, string, number, number, string][] = [
      ['void f(void) { while (1) {} }', 'C021', 1, 16, 'a while loop is not supported (the subset has if, for with a constant trip count, return, break and continue)'],
      ['void f(void) { do {} while (0); }', 'C021', 1, 16, 'a do loop is not supported (the subset has if, for with a constant trip count, return, break and continue)'],
      ['void f(int x) { switch (x) {} }', 'C021', 1, 17, 'a switch statement is not supported (the subset has if, for with a constant trip count, return, break and continue)'],
      ['void f(void) { out: return; }', 'C021', 1, 16, 'a label is not supported (the subset has if, for with a constant trip count, return, break and continue)'],
      ['void f(void) { goto out; }', 'C021', 1, 16, 'goto is not supported (the subset has if, for with a constant trip count, return, break and continue)'],
      ['int f(int a, int b) { return a, b; }', 'C022', 1, 31, 'the comma operator is not supported'],
      ['int a[2] = { 1, 2 };', 'C022', 1, 12, 'an initializer list is not supported'],
      ['int f(void) { return 1.5; }', 'C012', 1, 22, "bad number '1.5': floating-point numbers are not supported"],
      ['void f(void) { g()(); }', 'C022', 1, 19, 'a call through an expression (function pointers) is not supported'],
      ['int f(void) { return ; ', 'C020', 1, 24, "expected '}', found end of file"],
      ['int f(void) { return 1 }', 'C020', 1, 24, "expected ';', found '}'"],
    ];
    for (const [src, code, line, column, message] of cases) {
      const e = parseErr(src);
      expect({ code: e.code, line: e.span.line, column: e.span.column, message: e.message }, src).toEqual({ code, line, column, message });
    }
  });
});

describe('names of JavaScript\'s object model are plain C names', () => {
  // Each name is a struct tag, a member, a function, a parameter, a local
  // that starts statements, and (in a second unit) a macro tested by the
  // conditionals: every table a C word is looked up in sees it.
  const asNames = (n: string) => `struct ${n} { unsigned long ${n}; };
struct ${n} table[4];
static unsigned long ${n}(unsigned long ${n}) { return ${n} + 1; }
unsigned long f(unsigned long a)
{
    unsigned long x = ${n}(a);
    table[a & 3].${n} = x;
    ${n}(x);
    return table[a & 3].${n} + 1;
}
unsigned long g(unsigned long a)
{
    unsigned long ${n} = a;
    ${n} += 2;
    ${n} = ${n} + 1;
    return ${n};
}
`;
  const asMacro = (n: string) => `#define ${n}(x) ((x) + 7)
#ifdef ${n}
#if defined(${n}) && !defined(${n}_not)
unsigned long f(unsigned long a) { return ${n}(a); }
#endif
#endif
#undef ${n}
#ifndef ${n}
unsigned long g(unsigned long a) { return a + 3; }
#endif
`;
  const result = (text: string, fn: string): bigint | string => {
    const r = parseProgram(new Map([['n.c', text]]), ['n.c']);
    if (!r.ok) return `${r.errors[0].code} ${r.errors[0].message}`;
    const res = execFunction(r.program, fn, freshMemory(r.program), [bvConst(5n, 64)]);
    return res.ok ? (bvValue(res.ret) ?? res.ret.toString()) : `${res.error.code} ${res.error.message}`;
  };

  it.each(OBJECT_PROTOTYPE_NAMES)('%s', (n) => {
    expect([result(asNames(n), 'f'), result(asNames(n), 'g')]).toEqual([7n, 8n]);
    expect([result(asMacro(n), 'f'), result(asMacro(n), 'g')]).toEqual([12n, 8n]);
    // As a label it is the subset's refusal, named as any label is.
    expect(parseErr(`void h(void) { ${n}: return; }`).message).toBe(
      'a label is not supported (the subset has if, for with a constant trip count, return, break and continue)',
    );
  });
});

describe('a unit parsed again only when what it read changed', () => {
  const run = (files: Map<string, string>, units: string[], overrides: { path: string; text: string }[] = []) => {
    const r = parseProgram(files, units, overrides);
    if (!r.ok) return `${r.errors[0].code} ${r.errors[0].message}`;
    const res = execFunction(r.program, 'f', freshMemory(r.program), [bvConst(5n, 64)]);
    return res.ok ? bvValue(res.ret) : `${res.error.code} ${res.error.message}`;
  };
  const kernel = () =>
    new Map([
      ['src/a.c', '#include "k.h"\nunsigned long f(unsigned long a) { return a + K; }\n'],
      ['k.h', '#define K 1\n'],
    ]);

  it('shares the tree with a program whose override changes nothing it read, and not otherwise', () => {
    const files = kernel();
    expect(run(files, ['src/a.c'])).toBe(6n);
    // The same unit beside an override that replaces f: the override's f runs.
    expect(run(files, ['src/a.c'], [{ path: 'o.c', text: 'unsigned long f(unsigned long a) { return a + 10; }\n' }])).toBe(15n);
    // The override is the file the include looked for first (next to the includer): the unit reads it now.
    expect(run(files, ['src/a.c'], [{ path: 'src/k.h', text: '#define K 2\n' }])).toBe(7n);
    // A header's text changed: parsed again.
    expect(run(new Map([...files, ['k.h', '#define K 3\n']]), ['src/a.c'])).toBe(8n);
    expect(run(files, ['src/a.c'])).toBe(6n);
  });
});
