/**
 * Golden error cases: every file in test/cases/spec-errors/ has the header
 * (test/cases/README.md)
 *   # expect: error SPEC0xx <line>:<col> <exact message>
 * optionally with `# handler: NAME` (default sys_kill). The spec is checked
 * as the editor does (lintSpec) and must give exactly that one diagnostic,
 * with a code frame in its detail.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeFrame } from '../../src/core/diagnostic-text.ts';
import { SPEC_CODES, lintSpec } from '../../src/core/dialect/index.ts';
import { loadNameFilter } from '../../src/core/dialect/unicode-names.ts';
import { type Case, type Header, loadCases, parseHeader } from '../cases/load.ts';

interface Expectation {
  code: string;
  line: number;
  column: number;
  message: string;
  handler: string;
}

/** The one spec error a case expects; throws when its header states anything else. */
function expectation(header: Header, file: string): Expectation {
  const [e, ...more] = header.expectations;
  if (e.kind !== 'error' || more.length || !/^SPEC\d{3}$/.test(e.code)) throw new Error(`${file}: the header must be one "# expect: error SPEC0xx <line>:<col> <message>"`);
  return { code: e.code, line: e.line, column: e.column, message: e.message, handler: header.fields.handler ?? 'sys_kill' };
}

const cases: Case[] = loadCases('spec-errors');

describe('golden spec-error cases', () => {
  // As the worker's service does for a spec with a `\N{...}` escape (lex-unicode-name.py).
  beforeAll(() => loadNameFilter());

  it('refuses a case file with no expectation', () => {
    expect(() => parseHeader('import z3\n# expect: error SPEC001 1:1 x\n', '#', 'bad.py')).toThrow(/no 'expect:' line/);
    expect(() => parseHeader('# expect: error SPEC01 1:1 x\n', '#', 'bad.py')).toThrow(/malformed expectation/);
  });

  it('has enough cases, each with a documented code', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    const doc = readFileSync(new URL('../../docs/spec-errors.md', import.meta.url), 'utf8');
    for (const code of Object.keys(SPEC_CODES)) expect(doc).toContain(code);
  });

  for (const c of cases) {
    it(c.name, () => {
      const text = c.text;
      const want = expectation(c.header, c.path);
      const diags = lintSpec(text, want.handler);
      expect(diags).toHaveLength(1);
      const d = diags[0];
      expect({ code: d.code, line: d.span.line, column: d.span.column, message: d.message }).toEqual({
        code: want.code,
        line: want.line,
        column: want.column,
        message: want.message,
      });
      expect(d.detail).toContain(`${d.code}: ${d.message}`);
      expect(d.detail).toContain(codeFrame(text, d.span));
    });
  }
});
