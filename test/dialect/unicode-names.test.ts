/**
 * `\N{NAME}` escapes and the Unicode name filter the lexer loads on demand
 * (src/core/dialect/unicode-names.ts; docs/design.md, "The worker's first
 * code"). The tests run in order: the first ones see the filter unloaded,
 * as a worker does before its first request that needs it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/core/dialect/index.ts';
import { lex } from '../../src/core/dialect/lexer.ts';
import { NameFilterNotLoadedError, mayNeedNameFilter, nameFilterLoaded } from '../../src/core/dialect/unicode-names.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { walkCode } from '../../src/core/rename/walk.ts';
import { serveVerifier } from '../../src/core/service/serve.ts';

/** The golden case's spec and its one diagnostic (test/cases/spec-errors/lex-unicode-name.py). */
const UNKNOWN = readFileSync(new URL('../cases/spec-errors/lex-unicode-name.py', import.meta.url), 'utf8');
const UNKNOWN_ERROR = { code: 'SPEC001', line: 3, column: 14, message: "unknown Unicode character name 'DASH'" };
/** sys_kill's oracle with a known name in a unicode literal: still verified. */
const KNOWN = `${oracleSpec('sys_kill')!}\nNOTE = u'pid \\N{EM DASH} killed'\n`;

/** A worker's service whose Z3 never loads: what it answers, it answers without Z3. */
const noZ3 = () => serveVerifier({ loadEngine: () => new Promise(() => undefined), isolated: () => true });

function where(d: { code: string; span: { line: number; column: number }; message: string }) {
  return { code: d.code, line: d.span.line, column: d.span.column, message: d.message };
}

describe('the Unicode name filter, loaded on demand', () => {
  it('says which text may need it: a \\N{ escape, case-sensitive as in Python', () => {
    expect(mayNeedNameFilter("x = u'\\N{EM DASH}'")).toBe(true);
    expect(mayNeedNameFilter("x = u'\\n{EM DASH}'")).toBe(false);
    expect(mayNeedNameFilter("x = u'\\N'")).toBe(false);
    expect(mayNeedNameFilter(oracleSpec('sys_kill')!)).toBe(false);
  });

  it('is not loaded by the lexer: a name met before it is an internal error, never another answer', () => {
    expect(nameFilterLoaded()).toBe(false);
    expect(() => lex("x = u'\\N{EM DASH}'\n")).toThrow(NameFilterNotLoadedError);
    // Computed names need no filter, nor do escapes outside unicode literals.
    expect(lex("x = u'\\N{HANGUL SYLLABLE GA}' + '\\N{DASH}'\n").filter((t) => t.kind === 'string').map((t) => t.str)).toEqual(['\uac00', '\\N{DASH}']);
    const [d] = lintSpec(UNKNOWN, 'sys_kill');
    expect(d.code).toBe('SPEC099');
    expect(d.message).toMatch(/Unicode name filter is not loaded/);
    // Nor does the rename lens take such text for text that does not lex (and walk it as C).
    expect(() => walkCode("x = u'\\N{EM DASH}'\n", 'python', (n) => n)).toThrow(NameFilterNotLoadedError);
    expect(nameFilterLoaded()).toBe(false);
  });

  it("answers through the worker's service as the lexer with its filter does", async () => {
    const api = noZ3();
    expect((await api.check(UNKNOWN, 'sys_kill')).map(where)).toEqual([UNKNOWN_ERROR]);
    expect(nameFilterLoaded()).toBe(true);
    const verdict = await api.verifyWithoutSolver({ handler: 'sys_kill', spec: UNKNOWN });
    expect(verdict?.status).toBe('spec-error');
    if (verdict?.status === 'spec-error') expect(where(verdict.error)).toEqual(UNKNOWN_ERROR);
    expect((await noZ3().verifyWithoutSolver({ handler: 'sys_kill', spec: KNOWN }))?.status).toBe('verified');
    expect(await noZ3().check(KNOWN, 'sys_kill')).toEqual([]);
  }, 120_000);

  it('is never needed for the content the worker lexes without a request holding it', () => {
    // The oracle specs and their helpers, and the tasks' texts: a worker lexes them as they are, so none may hold an
    // escape the service would not see in a request (JSON writes the backslash twice).
    for (const file of ['bundle.json', 'tasks.json']) {
      expect(readFileSync(new URL(`../../tasks/hv6/${file}`, import.meta.url), 'utf8')).not.toContain('\\\\N{');
    }
  });
});
