/**
 * Golden C cases (test/cases/c): each file is a one-unit program whose
 * header (test/cases/README.md) states exactly what must happen (code,
 * line:column, message): `expect: error` (parsing or checking fails so),
 * `expect: exec-error FN` (it parses; executing FN fails so) or
 * `expect: safety FN` (executing FN records that safety condition).
 */
import { describe, expect, it } from 'vitest';
import { execFunction, freshMemory, functionSignature, parseProgram } from '../../src/core/c/index.ts';
import { variable } from '../../src/core/smt/term.ts';
import { type Case, featureDir, loadCases } from '../cases/load.ts';
import { readDir } from './helpers.ts';

const files = readDir(featureDir('c'));

interface Expectation {
  readonly kind: 'error' | 'exec-error' | 'safety';
  readonly fn?: string;
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** A C case's expectations, each with a code (for `safety`, the kind of the check). */
function expectations(c: Case): Expectation[] {
  return c.header.expectations.map((e) => {
    if (e.kind === 'error' || e.kind === 'exec-error') return e;
    if (e.kind === 'safety') return { ...e, code: e.check };
    throw new Error(`${c.path}: 'expect: ${e.kind}' is not an expectation of a C case`);
  });
}

function run(path: string) {
  const r = parseProgram(files, [path]);
  return r;
}

describe('golden C cases', () => {
  const cases = loadCases('c');

  it('has cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const c of cases) {
    const path = c.name;
    it(path, () => {
      const exp = expectations(c);
      expect(exp.length, `${path} states no expectation`).toBeGreaterThan(0);
      const r = run(path);
      const errors = exp.filter((e) => e.kind === 'error');
      if (errors.length) {
        expect(r.ok, `${path} should not parse`).toBe(false);
        if (r.ok) return;
        const got = r.errors[0];
        const want = errors[0];
        expect({ code: got.code, file: got.file, line: got.span.line, column: got.span.column, message: got.message }).toEqual({
          code: want.code, file: path, line: want.line, column: want.column, message: want.message,
        });
        return;
      }
      if (!r.ok) throw new Error(r.errors.map((e) => e.detail).join('\n'));
      const program = r.program;
      for (const fn of new Set(exp.map((e) => e.fn!))) {
        const sig = functionSignature(program, fn)!;
        const res = execFunction(program, fn, freshMemory(program), sig.params.map((p) => variable(`a.${p.name}`, p.width)));
        const execErr = exp.find((e) => e.kind === 'exec-error' && e.fn === fn);
        if (execErr) {
          expect(res.ok, `${fn} should fail`).toBe(false);
          if (res.ok) return;
          const e = res.error;
          expect({ code: e.code, line: e.span.line, column: e.span.column, message: e.message }).toEqual({
            code: execErr.code, line: execErr.line, column: execErr.column, message: execErr.message,
          });
          continue;
        }
        if (!res.ok) throw new Error(res.error.detail);
        const got = res.safety.map((s) => `${s.kind} ${s.span.line}:${s.span.column} ${s.message}`);
        const want = exp.filter((e) => e.fn === fn).map((e) => `${e.code} ${e.line}:${e.column} ${e.message}`);
        expect(got).toEqual(want);
      }
    });
  }
});
