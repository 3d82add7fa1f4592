/**
 * Golden cases: each file in test/c/cases is a one-unit program whose first
 * comment lines state what must happen, exactly (code, line:column, message):
 *
 *   // expect-error CODE L:C MESSAGE            parsing/checking fails so
 *   // expect-exec-error FN CODE L:C MESSAGE    parsing succeeds, executing FN fails so
 *   // expect-safety FN KIND L:C MESSAGE        executing FN records that safety condition
 *
 * A case file without an expectation is refused.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execFunction, freshMemory, functionSignature, parseProgram } from '../../src/core/c/index.ts';
import { variable } from '../../src/core/smt/term.ts';
import { readDir } from './helpers.ts';

const dir = join(import.meta.dirname, 'cases');
const files = readDir(dir);

interface Expectation {
  readonly kind: 'error' | 'exec-error' | 'safety';
  readonly fn?: string;
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

function expectations(text: string): Expectation[] {
  const out: Expectation[] = [];
  for (const line of text.split('\n')) {
    const m = /^\/\/ expect-(error|exec-error|safety) (.*)$/.exec(line);
    if (!m) continue;
    const words = m[2].split(' ');
    const fn = m[1] === 'error' ? undefined : words.shift();
    const code = words.shift()!;
    const [l, c] = words.shift()!.split(':').map(Number);
    out.push({ kind: m[1] as Expectation['kind'], fn, code, line: l, column: c, message: words.join(' ') });
  }
  return out;
}

function run(path: string) {
  const r = parseProgram(files, [path]);
  return r;
}

describe('golden C cases', () => {
  const cases = readdirSync(dir).filter((f) => f.endsWith('.c')).sort();

  it('has cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const path of cases) {
    it(path, () => {
      const exp = expectations(files.get(path)!);
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
