/**
 * Differential test of the executor's C semantics against gcc. Each `f_*`
 * function of fixtures/semantics/semantics.c runs once symbolically on
 * symbolic arguments and a fresh memory; then, for many random inputs, the
 * resulting terms are evaluated under an interpretation that gives the
 * arguments and the initial memory concrete values, and compared with the
 * same function compiled by gcc and run on the same inputs. The return
 * value and every element of every global must agree, and every safety
 * condition must hold (the fixture has no undefined behaviour).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CProgram, type ExecResult, execFunction, freshMemory, functionSignature,
} from '../../src/core/c/index.ts';
import { evaluate } from '../../src/core/smt/eval.ts';
import { bvConst, variable } from '../../src/core/smt/term.ts';
import {
  type CLeaf, type ConcreteMemory, FIXTURES, Rng, cLeaves, compileC, indexTuples, memoryInterpretation, mustParse, readDir, run,
} from './helpers.ts';

const CASES_PER_FUNCTION = 250;
const dir = join(FIXTURES, 'semantics');

function cTypeName(width: number, signed: boolean): string {
  return `${signed ? '' : 'u'}int${width}_t`;
}

const mask = (w: number) => (1n << BigInt(w)) - 1n;

/** The gcc harness: reads cases from stdin, prints the return value and all globals per case. */
function harness(program: CProgram, fns: string[], leaves: CLeaf[]): string {
  const loops = (l: CLeaf, body: string) => {
    let s = body;
    for (let k = l.dims.length - 1; k >= 0; k--) s = `for (int i${k} = 0; i${k} < ${l.dims[k]}; i${k}++) { ${s} }`;
    return s;
  };
  const access = (l: CLeaf) => l.access.replace(/%(\d+)/g, (_, k) => `i${k}`);
  const load = leaves.map((l) => loops(l, `${access(l)} = (${l.bool ? '_Bool' : cTypeName(l.width, false)})rd();`)).join('\n  ');
  const dump = leaves
    .map((l) => loops(l, `printf(" %llu", (unsigned long long)(${access(l)}) & 0x${mask(l.width).toString(16)}ULL);`))
    .join('\n  ');
  const cases = fns.map((name, fid) => {
    const sig = functionSignature(program, name)!;
    const reads = sig.params.map((_, k) => `unsigned long long a${k} = rd();`).join(' ');
    const args = sig.params.map((p, k) => `(${cTypeName(p.width, p.signed)})a${k}`).join(', ');
    return `case ${fid}: { ${reads} load(); unsigned long long r = (unsigned long long)${name}(${args}); printf("%llu", r & 0x${mask(sig.ret.width).toString(16)}ULL); break; }`;
  });
  return `#include <stdio.h>
#include <stdlib.h>
#include "semantics.c"
static unsigned long long rd(void) { unsigned long long v; if (scanf("%llu", &v) != 1) exit(3); return v; }
static void load(void) {
  ${load}
}
static void dump(void) {
  ${dump}
}
int main(void) {
  int fid;
  while (scanf("%d", &fid) == 1) {
    switch (fid) {
    ${cases.join('\n    ')}
    default: return 2;
    }
    dump();
    printf("\\n");
  }
  return 0;
}
`;
}

interface Case {
  readonly fid: number;
  readonly args: bigint[];
  readonly mem: ConcreteMemory;
}

describe('C semantics agree with gcc', () => {
  const files = readDir(dir);
  const program = mustParse(files, ['semantics.c']);
  const fns = [...program.functions.values()].filter((f) => f.name.startsWith('f_') && f.body).map((f) => f.name);
  const leaves = cLeaves(program);
  const results = new Map<string, ExecResult>();
  const cases: Case[] = [];
  let gccLines: string[] = [];

  beforeAll(() => {
    const rng = new Rng(20240611);
    fns.forEach((name, fid) => {
      const sig = functionSignature(program, name)!;
      const args = sig.params.map((p, k) => variable(`arg${k}`, p.width));
      results.set(name, execFunction(program, name, freshMemory(program), args));
      for (let n = 0; n < CASES_PER_FUNCTION; n++) {
        const mem: ConcreteMemory = new Map();
        for (const l of leaves) {
          const m = new Map<string, bigint>();
          for (const t of indexTuples(l.dims)) m.set(t.join(','), l.bool ? BigInt(rng.below(2)) : rng.bits(l.width));
          mem.set(l.key, m);
        }
        cases.push({ fid, args: sig.params.map((p) => rng.bits(p.width)), mem });
      }
    });
    const sources: Record<string, string> = {
      'semantics.c': readFileSync(join(dir, 'semantics.c'), 'utf8'),
      'types.h': readFileSync(join(dir, 'types.h'), 'utf8'),
      'hooks.h': '#include <string.h>\n',
      'harness.c': harness(program, fns, leaves),
    };
    const exe = compileC(sources, 'harness.c');
    const input = cases
      .map((c) => {
        const vals: string[] = [String(c.fid), ...c.args.map(String)];
        for (const l of leaves) for (const t of indexTuples(l.dims)) vals.push(String(c.mem.get(l.key)!.get(t.join(','))!));
        return vals.join(' ');
      })
      .join('\n');
    gccLines = run(exe, input).trim().split('\n');
  });

  it('has functions to test, each executed without error', () => {
    expect(fns.length).toBeGreaterThanOrEqual(15);
    for (const name of fns) {
      const r = results.get(name)!;
      expect(r.ok, r.ok ? '' : r.error.detail).toBe(true);
    }
  });

  it('gcc ran every case', () => {
    expect(gccLines.length).toBe(cases.length);
  });

  for (const name of fns) {
    it(`${name}: return value, memory and safety agree on ${CASES_PER_FUNCTION} random inputs`, () => {
      const r = results.get(name)!;
      if (!r.ok) throw new Error(r.error.detail);
      const fid = fns.indexOf(name);
      let checked = 0;
      cases.forEach((c, k) => {
        if (c.fid !== fid) return;
        const consts = new Map<string, bigint>(c.args.map((a, i) => [`arg${i}`, a]));
        const interp = memoryInterpretation(c.mem, consts);
        const memo = new Map();
        const ours: bigint[] = [evaluate(r.ret, interp, memo) as bigint];
        for (const l of leaves) {
          const f = r.mem.get(l.key)!;
          for (const t of indexTuples(l.dims)) {
            ours.push(evaluate(f.apply(t.map((i) => bvConst(i, 64))), interp, memo) as bigint);
          }
        }
        const theirs = gccLines[k].trim().split(/\s+/).map(BigInt);
        const where = `${name}(${c.args.join(', ')})`;
        expect(ours[0], `${where}: return value`).toBe(theirs[0]);
        let p = 1;
        for (const l of leaves) {
          for (const t of indexTuples(l.dims)) {
            if (ours[p] !== theirs[p]) expect(ours[p], `${where}: ${l.key}[${t.join('][')}]`).toBe(theirs[p]);
            p++;
          }
        }
        for (const s of r.safety) {
          expect(evaluate(s.ok, interp, memo), `${where}: ${s.message}`).toBe(true);
        }
        checked++;
      });
      expect(checked).toBe(CASES_PER_FUNCTION);
    });
  }
});
