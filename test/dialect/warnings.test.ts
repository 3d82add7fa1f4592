/**
 * Golden warning cases: every file in test/cases/spec-warnings/ has a header
 * (test/cases/README.md) with one or more
 *   # expect: warning SPEC2xx <line>:<col> <exact message>
 * lines, a `# upstream:` line saying what hv6's Python 2 + z3py does there,
 * optionally `# handler: NAME` (default sys_kill) and `# expect: STATUS`.
 * The spec must check with no error and exactly those warnings (as the
 * editor checks it), and, with an expected status, verify() against the kernel
 * must give that status and carry the same warnings: the spec evaluates as
 * upstream evaluates it, and the warning changes nothing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine, nodeEnv } from '../../src/z3/node.ts';
import { codeFrame } from '../../src/core/diagnostic-text.ts';
import { SPEC_WARNINGS, lintSpec } from '../../src/core/dialect/index.ts';
import { verify } from '../../src/core/verify/index.ts';
import { gradeResponse, handlerOnlyTask } from '../../src/core/eval/grade/grade.ts';
import { jsonVerdict } from '../../src/cli/commands/verify.ts';
import { type Header, featureDir, loadCases } from '../cases/load.ts';

const FEATURE = 'spec-warnings';

interface Want {
  code: string;
  line: number;
  column: number;
  message: string;
}

function header(h: Header, file: string): { warnings: Want[]; handler: string; verdict?: string } {
  const warnings = h.expectations
    .filter((e) => e.kind === 'warning')
    .map((e) => ({ code: e.code, line: e.line, column: e.column, message: e.message }));
  if (!warnings.length || warnings.some((w) => !/^SPEC2\d\d$/.test(w.code))) throw new Error(`${file}: needs "# expect: warning SPEC2xx <line>:<col> <message>"`);
  if (!h.fields.upstream) throw new Error(`${file}: needs "# upstream: <what hv6's Python does>"`);
  const v = h.expectations.find((e) => e.kind !== 'warning');
  if (v && v.kind !== 'verified' && v.kind !== 'refuted') throw new Error(`${file}: 'expect: ${v.kind}' is not a verdict`);
  return { warnings, handler: h.fields.handler ?? 'sys_kill', verdict: v?.kind };
}

const cases = loadCases(FEATURE);

describe('golden spec-warning cases', () => {
  it('covers every warning code, each documented', () => {
    const doc = readFileSync(new URL('../../docs/spec-errors.md', import.meta.url), 'utf8');
    const used = new Set(cases.flatMap((c) => header(c.header, c.path).warnings.map((w) => w.code)));
    for (const code of Object.keys(SPEC_WARNINGS)) {
      expect(doc).toContain(code);
      expect(used.has(code), `no case for ${code}`).toBe(true);
    }
  });

  for (const c of cases) {
    it(c.name, async () => {
      const text = c.text;
      const want = header(c.header, c.path);
      const diags = lintSpec(text, want.handler);
      expect(diags.filter((d) => d.severity !== 'warning')).toEqual([]);
      const got = diags.map((d) => ({ code: d.code, line: d.span.line, column: d.span.column, message: d.message }));
      expect(got).toEqual(want.warnings);
      for (const d of diags) {
        expect(d.severity).toBe('warning');
        expect(d.detail).toContain(codeFrame(text, d.span));
      }
      if (want.verdict) {
        const v = await verify({ handler: want.handler, spec: text }, await nodeEnv());
        expect(v.status).toBe(want.verdict);
        expect((v.warnings ?? []).map((w) => w.code)).toEqual(want.warnings.map((w) => w.code));
      }
    }, 120_000);
  }
});

describe('warnings reach every consumer and change nothing', () => {
  const spec = readFileSync(`${featureDir(FEATURE)}/if-on-equality.py`, 'utf8');

  it('verify --json, the grade and the repair diagnosis carry them', async () => {
    const engine = await nodeEngine();
    const v = await verify({ handler: 'sys_kill', spec }, { engine, caches: nodeCaches() });
    const json = jsonVerdict('sys_kill', v, 1) as { verdict: { status: string; warnings: { code: string; line: number; column: number }[] } };
    expect(json.verdict.status).toBe('verified');
    expect(json.verdict.warnings).toMatchObject([{ code: 'SPEC203', message: expect.stringContaining('structurally'), line: 5, column: 8, severity: 'warning' }]);
    const g = await gradeResponse(handlerOnlyTask('sys_kill'), spec, { engine, caches: nodeCaches() });
    expect(g.category).toBe('pass');
    expect(g.warnings?.map((w) => w.code)).toEqual(['SPEC203']);
    expect(g.diagnosis).toMatch(/Warnings .*\n- SPEC203 at line \d+, column 8: /);
  }, 120_000);

  it('a spec error keeps the warnings found before it', async () => {
    const broken = spec.replace('return cond, util.If(cond, new, old)', 'return cond, util.If(cond, new, old) + 1');
    const v = await verify({ handler: 'sys_kill', spec: broken }, await nodeEnv());
    expect(v.status).toBe('spec-error');
    expect(v.warnings?.map((w) => w.code)).toEqual(['SPEC203']);
  }, 120_000);
});
