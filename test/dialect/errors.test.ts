/**
 * Golden error cases: every file in test/cases/spec-errors/ starts with
 *   # expect-error: SPEC0xx <line>:<col> <exact message>
 * optionally followed by `# handler: NAME` (default sys_kill). The spec is
 * checked as the editor does (checkSpec) and must give exactly that one
 * diagnostic, with a code frame in its detail.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codeFrame } from '../../src/core/diagnostic-text.ts';
import { SPEC_CODES, checkSpec } from '../../src/core/dialect/index.ts';

const DIR = new URL('../cases/spec-errors/', import.meta.url);

interface Expectation {
  code: string;
  line: number;
  column: number;
  message: string;
  handler: string;
}

/** Reads the expectation header; throws when the file has none. */
function expectation(text: string, file: string): Expectation {
  const first = text.split('\n', 1)[0];
  const m = /^# expect-error: (SPEC\d{3}) (\d+):(\d+) (.+)$/.exec(first);
  if (!m) throw new Error(`${file}: the first line must be "# expect-error: SPEC0xx <line>:<col> <message>"`);
  const h = /^# handler: (\w+)$/m.exec(text);
  return { code: m[1], line: Number(m[2]), column: Number(m[3]), message: m[4], handler: h ? h[1] : 'sys_kill' };
}

const files = readdirSync(DIR).filter((f) => f.endsWith('.py')).sort();

describe('golden spec-error cases', () => {
  it('refuses a case file with no expectation', () => {
    expect(() => expectation('import z3\n# expect-error: SPEC001 1:1 x\n', 'bad.py')).toThrow(/first line must be/);
    expect(() => expectation('# expect-error: SPEC01 1:1 x\n', 'bad.py')).toThrow(/first line must be/);
  });

  it('has enough cases, each with a documented code', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    const doc = readFileSync(new URL('../../docs/spec-errors.md', import.meta.url), 'utf8');
    for (const code of Object.keys(SPEC_CODES)) expect(doc).toContain(code);
  });

  for (const file of files) {
    it(file, () => {
      const text = readFileSync(new URL(file, DIR), 'utf8');
      const want = expectation(text, file);
      const diags = checkSpec(text, want.handler);
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
