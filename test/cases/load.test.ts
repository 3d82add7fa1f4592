// The case loader refuses what would make a golden test pass without checking anything.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases, parseExpectation, parseHeader } from './load.ts';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'osvlab-cases-'));
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith('/')) mkdirSync(join(root, path), { recursive: true });
    else {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  }
  return root;
}

describe('case loader', () => {
  it('parses every kind of expectation', () => {
    expect(parseExpectation('error SPEC029 8:24 not a value')).toEqual({ kind: 'error', code: 'SPEC029', line: 8, column: 24, message: 'not a value' });
    expect(parseExpectation('exec-error f C053 5:5 the loop ran')).toEqual({ kind: 'exec-error', fn: 'f', code: 'C053', line: 5, column: 5, message: 'the loop ran' });
    expect(parseExpectation('safety f div-zero 5:12 b may be 0')).toEqual({ kind: 'safety', fn: 'f', check: 'div-zero', line: 5, column: 12, message: 'b may be 0' });
    expect(parseExpectation('refuted cond procs.nr_fds')).toEqual({ kind: 'refuted', obligations: ['cond', 'procs.nr_fds'] });
    expect(parseExpectation('verified')).toEqual({ kind: 'verified' });
    expect(parseExpectation('lemma-fail isolation')).toEqual({ kind: 'lemma-fail', lemma: 'isolation' });
  });

  it('reads the leading comment lines only, with fields and prose', () => {
    const h = parseHeader('# expect: refuted cond\n# mistake: no check\n# The check is gone:\nimport z3\n# expect: verified\n', '#');
    expect(h).toEqual({ expectations: [{ kind: 'refuted', obligations: ['cond'] }], fields: { mistake: 'no check' }, lines: 3 });
  });

  it('refuses the spellings from before the one grammar, with the line to write', () => {
    expect(() => parseHeader('# expect-error: SPEC001 1:2 x y\n', '#', 'a.py')).toThrow(/a\.py:1: .*old spelling; write '# expect: error SPEC001 1:2 x y'/);
    expect(() => parseHeader('# verdict: verified\n', '#', 'a.py')).toThrow(/write '# expect: verified'/);
    expect(() => parseHeader('// expect-safety f bounds 5:12 index i\nint x;\n', '//', 'a.c')).toThrow(/write '\/\/ expect: safety f bounds 5:12 index i'/);
  });

  it('refuses a malformed header, naming the file and line', () => {
    expect(() => parseHeader('import z3\n# expect: verified\n', '#', 'a.py')).toThrow(/^a\.py: no 'expect:' line/);
    expect(() => parseHeader('# mistake: x\n# expect: error SPEC1 1:1 m\n', '#', 'a.py')).toThrow(/^a\.py:2: malformed expectation .*want 'expect: error CODE LINE:COL MESSAGE'/);
    expect(() => parseHeader('# expect: refute cond\n', '#', 'a.py')).toThrow(/a\.py:1: malformed expectation/);
    expect(() => parseHeader('# expect: verified now\n', '#', 'a.py')).toThrow(/malformed/);
    expect(() => parseHeader('// expect: safety f bounds 5 x\n', '//', 'a.c')).toThrow(/malformed/);
    expect(() => parseHeader('# expect: verified\n# handlr: sys_kill\n', '#', 'a.py')).toThrow(/a\.py:2: .*not a header line/);
    expect(() => parseHeader('# expects: verified\n', '#', 'a.py')).toThrow(/not a header line/);
    expect(() => parseHeader('# expect: verified\n# handler: a\n# handler: b\n', '#', 'a.py')).toThrow(/given twice/);
  });

  it('refuses a missing or empty feature folder and an empty handler folder', () => {
    const root = tree({ 'empty/': '', 'headers-only/x.h': '', 'flat/a.py': '# expect: verified\n', 'grouped/sys_kill/': '' });
    expect(() => loadCases('missing', root)).toThrow(/missing is missing/);
    expect(() => loadCases('empty', root)).toThrow(/empty holds no case file/);
    expect(() => loadCases('headers-only', root)).toThrow(/holds no case file/);
    expect(() => loadCases('grouped', root)).toThrow(/grouped\/sys_kill holds no case file/);
    expect(loadCases('flat', root).map((c) => [c.name, c.group, c.path, c.body])).toEqual([['a.py', undefined, 'flat/a.py', '']]);
  });

  it('lists grouped cases in order, the folder naming the handler', () => {
    const root = tree({ 'g/sys_dup/b.c': '// expect: refuted cond\nint x;\n', 'g/sys_dup/a.c': '// expect: verified\n', 'g/sys_close/z.py': '# expect: verified\n# handler: sys_kill\n' });
    expect(loadCases('g', root).map((c) => `${c.group}/${c.name} ${c.handler}`)).toEqual(['sys_close/z.py sys_kill', 'sys_dup/a.c sys_dup', 'sys_dup/b.c sys_dup']);
  });
});
