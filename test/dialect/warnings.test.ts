/**
 * Golden warning cases: every file in test/cases/spec-warnings/ starts with
 * one or more
 *   # expect-warning: SPEC2xx <line>:<col> <exact message>
 * lines, a `# upstream:` line saying what hv6's Python 2 + z3py does there,
 * optionally `# handler: NAME` (default sys_kill) and `# verdict: STATUS`.
 * The spec must check with no error and exactly those warnings (as the
 * editor checks it), and, with a verdict line, verify() against the kernel
 * must give that status and carry the same warnings: the spec evaluates as
 * upstream evaluates it, and the warning changes nothing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/cli/z3-node.ts';
import { codeFrame } from '../../src/core/diagnostic-text.ts';
import { SPEC_WARNINGS, checkSpec } from '../../src/core/dialect/index.ts';
import { verify } from '../../src/core/verify/index.ts';
import { gradeResponse, handlerOnlyTask } from '../../src/core/bench/grade.ts';
import { jsonVerdict } from '../../src/cli/commands/verify.ts';

const DIR = new URL('../cases/spec-warnings/', import.meta.url);

interface Want {
  code: string;
  line: number;
  column: number;
  message: string;
}

function header(text: string, file: string): { warnings: Want[]; handler: string; verdict?: string } {
  const warnings = [...text.matchAll(/^# expect-warning: (SPEC2\d\d) (\d+):(\d+) (.+)$/gm)].map((m) => ({
    code: m[1],
    line: Number(m[2]),
    column: Number(m[3]),
    message: m[4],
  }));
  if (!warnings.length) throw new Error(`${file}: needs "# expect-warning: SPEC2xx <line>:<col> <message>"`);
  if (!/^# upstream: .+$/m.test(text)) throw new Error(`${file}: needs "# upstream: <what hv6's Python does>"`);
  const h = /^# handler: (\w+)$/m.exec(text);
  const v = /^# verdict: ([\w-]+)$/m.exec(text);
  return { warnings, handler: h ? h[1] : 'sys_kill', verdict: v?.[1] };
}

const files = readdirSync(DIR).filter((f) => f.endsWith('.py')).sort();

describe('golden spec-warning cases', () => {
  it('covers every warning code, each documented', () => {
    const doc = readFileSync(new URL('../../docs/spec-errors.md', import.meta.url), 'utf8');
    const used = new Set(files.flatMap((f) => header(readFileSync(new URL(f, DIR), 'utf8'), f).warnings.map((w) => w.code)));
    for (const code of Object.keys(SPEC_WARNINGS)) {
      expect(doc).toContain(code);
      expect(used.has(code), `no case for ${code}`).toBe(true);
    }
  });

  for (const file of files) {
    it(file, async () => {
      const text = readFileSync(new URL(file, DIR), 'utf8');
      const want = header(text, file);
      const diags = checkSpec(text, want.handler);
      expect(diags.filter((d) => d.severity !== 'warning')).toEqual([]);
      const got = diags.map((d) => ({ code: d.code, line: d.span.line, column: d.span.column, message: d.message }));
      expect(got).toEqual(want.warnings);
      for (const d of diags) {
        expect(d.severity).toBe('warning');
        expect(d.detail).toContain(codeFrame(text, d.span));
      }
      if (want.verdict) {
        const v = await verify({ handler: want.handler, spec: text }, { engine: await nodeEngine() });
        expect(v.status).toBe(want.verdict);
        expect((v.warnings ?? []).map((w) => w.code)).toEqual(want.warnings.map((w) => w.code));
      }
    }, 120_000);
  }
});

describe('warnings reach every consumer and change nothing', () => {
  const spec = readFileSync(new URL('if-on-equality.py', DIR), 'utf8');

  it('verify --json, the grade and the repair diagnosis carry them', async () => {
    const engine = await nodeEngine();
    const v = await verify({ handler: 'sys_kill', spec }, { engine });
    const json = jsonVerdict('sys_kill', v, 1) as { verdict: { status: string; warnings: { code: string; line: number; column: number }[] } };
    expect(json.verdict.status).toBe('verified');
    expect(json.verdict.warnings).toMatchObject([{ code: 'SPEC203', message: expect.stringContaining('structurally'), line: 5, column: 8, severity: 'warning' }]);
    const g = await gradeResponse(handlerOnlyTask('sys_kill'), spec, { engine });
    expect(g.category).toBe('pass');
    expect(g.warnings?.map((w) => w.code)).toEqual(['SPEC203']);
    expect(g.diagnosis).toMatch(/Warnings .*\n- SPEC203 at line \d+, column 8: /);
  }, 120_000);

  it('a spec error keeps the warnings found before it', async () => {
    const broken = spec.replace('return cond, util.If(cond, new, old)', 'return cond, util.If(cond, new, old) + 1');
    const v = await verify({ handler: 'sys_kill', spec: broken }, { engine: await nodeEngine() });
    expect(v.status).toBe('spec-error');
    expect(v.warnings?.map((w) => w.code)).toEqual(['SPEC203']);
  }, 120_000);
});
