/**
 * Bad input never crashes or hangs: randomly damaged kernel sources either
 * parse or give diagnostics (never an exception), and whatever parses runs
 * every handler to a result or a diagnostic within a step budget.
 */
import { describe, expect, it } from 'vitest';
import { execFunction, freshMemory, functionSignature, parseProgram } from '../../src/core/c/index.ts';
import { variable } from '../../src/core/smt/term.ts';
import { requireArtefact } from '../artefacts.ts';
import { Rng, kernelFiles } from './helpers.ts';

const files = requireArtefact(kernelFiles(), 'the kernel in tasks/hv6/kernel');

/** One random edit: delete, duplicate or move a slice, or insert a stray token. */
function mutate(text: string, rng: Rng): string {
  const at = rng.below(text.length);
  const len = 1 + rng.below(12);
  switch (rng.below(4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + len);
    case 1:
      return text.slice(0, at) + text.slice(at, at + len) + text.slice(at);
    case 2: {
      const to = rng.below(text.length);
      const piece = text.slice(at, at + len);
      const rest = text.slice(0, at) + text.slice(at + len);
      return rest.slice(0, to) + piece + rest.slice(to);
    }
    default: {
      const junk = ['(', ')', '{', '}', ';', '*', '&', '#', 'while', '0', 'x', ',', '"', "'", '\\', '@', '[', ']'];
      return text.slice(0, at) + junk[rng.below(junk.length)] + text.slice(at);
    }
  }
}

describe('robustness', () => {
  it('never throws on damaged kernels, and executes what still parses', () => {
    const rng = new Rng(7);
    const names = [...files.keys()];
    const units = names.filter((f) => f.endsWith('.c'));
    let parsed = 0;
    let failed = 0;
    for (let round = 0; round < 120; round++) {
      const damaged = new Map(files);
      for (let k = 0; k < 1 + rng.below(3); k++) {
        const f = names[rng.below(names.length)];
        damaged.set(f, mutate(damaged.get(f)!, rng));
      }
      const r = parseProgram(damaged, units);
      if (!r.ok) {
        failed++;
        for (const e of r.errors) {
          expect(e.code).toMatch(/^C0[0-5]\d$/);
          expect(e.code).not.toBe('C057');
          expect(e.span.line).toBeGreaterThan(0);
        }
        continue;
      }
      parsed++;
      for (const name of ['sys_dup2', 'clone_proc', 'sys_alloc_port']) {
        const sig = functionSignature(r.program, name);
        if (!sig || !r.program.functions.get(name)?.body || sig.params.some((p) => p.width === 0)) continue;
        const res = execFunction(r.program, name, freshMemory(r.program), sig.params.map((p) => variable(`a.${p.name}`, p.width)), { maxSteps: 50_000 });
        if (!res.ok) expect(res.error.code).toMatch(/^C0[3-5]\d$/);
      }
    }
    expect(failed).toBeGreaterThan(20);
    expect(parsed).toBeGreaterThan(5);
  });

  it('reports absurd nesting and runaway macros as diagnostics', () => {
    const deep = `int f(int x) { return ${'('.repeat(20000)}x${')'.repeat(20000)}; }`;
    const r1 = parseProgram(new Map([['d.c', deep]]), ['d.c']);
    expect(r1.ok ? '' : `${r1.errors[0].code} ${r1.errors[0].message}`).toBe('C022 nesting deeper than 500 levels is not supported');
    const bomb = ['#define A0 x x', ...Array.from({ length: 30 }, (_, i) => `#define A${i + 1} A${i} A${i}`), 'int y = A30;'].join('\n');
    const r2 = parseProgram(new Map([['b.c', bomb]]), ['b.c']);
    expect(r2.ok ? '' : r2.errors[0].code).toBe('C005');
  });
});
