/**
 * A seeded, time-bounded fuzzer of the C front end and executor: generated
 * malformed and hostile programs (random token damage to a small program,
 * and generators for the shapes that used to break things: deep nesting,
 * long operator chains, loops of writes, returns in loops, doubling and deep
 * call chains, runaway macros, huge literals, stray bytes) go through
 * `parseProgram` and `execFunction`; a few damaged overrides of a kernel
 * handler go through the whole verifier. Every outcome must be a coded C
 * error (never C057, the internal one) or a result: no exception, no input
 * that runs for seconds. The counts are printed for the record.
 */
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine } from '../../src/z3/node.ts';
import { type CDiagnostic, execFunction, freshMemory, parseProgram } from '../../src/core/c/index.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { variable } from '../../src/core/smt/term.ts';
import { ImplementationError, verify } from '../../src/core/verify/index.ts';
import { Rng } from './helpers.ts';

const BASE = `#define N 8
#define MASK(x) ((x) & (N - 1))
struct item { unsigned long v; int flag; unsigned long arr[4]; };
struct item items[N];
unsigned long table[512];
int counter;

static int helper(int x)
{
    if (x > 3)
        return x - 1;
    return x + 1;
}

int f(int a, int b)
{
    int i;
    unsigned long s = 0;
    if (a < 0 || a >= N)
        return -1;
    for (i = 0; i < 4; i++) {
        if (items[a].arr[i] == 0)
            continue;
        s += items[a].arr[i] * (unsigned long)b;
    }
    items[MASK(b)].flag = helper(a) ? 1 : 0;
    table[(unsigned char)b] = s;
    counter++;
    return (int)(s >> 3);
}
`;

const JUNK = ['(', ')', '{', '}', ';', '*', '&', '#', 'while', 'for', 'if', 'return', '0', 'a', ',', '"', "'", '\\', '@', '[', ']', '?', ':', '=', '+', '<<', '->', '.', 'sizeof', 'struct', 'int', '/*', '//', '\n#define', '0x', '99999999999999999999', '\0', '\u00e9', '`'];

function damage(text: string, rng: Rng): string {
  let t = text;
  for (let k = 0, n = 1 + rng.below(4); k < n; k++) {
    const at = rng.below(t.length);
    const len = 1 + rng.below(10);
    switch (rng.below(4)) {
      case 0:
        t = t.slice(0, at) + t.slice(at + len);
        break;
      case 1:
        t = t.slice(0, at) + t.slice(at, at + len).repeat(1 + rng.below(3)) + t.slice(at);
        break;
      default:
        t = t.slice(0, at) + JUNK[rng.below(JUNK.length)] + t.slice(at);
    }
  }
  return t;
}

const fn = (body: string) => `unsigned long table[512];\nint f(int a, int b)\n{\n${body}\n}\n`;

/** Hostile programs, each of a random size. */
const HOSTILE: ((rng: Rng) => string)[] = [
  (r) => fn(`    return ${'('.repeat(100 + r.below(3000))}a${')'.repeat(100 + r.below(3000))};`),
  (r) => fn(`    return ${Array(200 + r.below(4000)).fill('a').join([' + ', ' * ', ' && ', ' | '][r.below(4)])};`),
  (r) => fn(`    int x;\n    ${'x = '.repeat(100 + r.below(5000))}a;\n    return x;`),
  (r) => fn(`    return ${'a ? b : '.repeat(100 + r.below(3000))}0;`),
  (r) => fn(`    return ${['-', '!', '~', '++', '*', '&'][r.below(6)].repeat(100 + r.below(3000))}a;`),
  (r) => fn(`    int i;\n    for (i = 0; i < ${100 + r.below(5000)}; i++)\n        table[${['a', 'i', 'b', 'i % 7'][r.below(4)]}] = table[b] + i;\n    return 0;`),
  (r) => fn(`    int i;\n    int x = 0;\n    for (i = 0; i < ${100 + r.below(5000)}; i++)\n        x = x * 3 + ${['b', 'i', 'table[a & 511]'][r.below(3)]};\n    return x;`),
  (r) => fn(`    int i;\n    for (i = 0; i < ${100 + r.below(50000)}; i++)\n        if (a == i)\n            ${['return i;', 'break;', 'continue;'][r.below(3)]}\n    return 0;`),
  (r) => fn(Array.from({ length: 50 + r.below(1000) }, (_, k) => `    if (a == ${k}) b = b + ${k}; else b = b * 3;`).join('\n') + '\n    return b;'),
  (r) => fn(`    for (;;) ${['a++;', 'table[a & 511] = 1;', '{ if (a) break; }'][r.below(3)]}\n    return a;`),
  (r) => {
    const n = 10 + r.below(25);
    const out = ['static int g0(int x) { if (x == 3) return 1; return 2; }'];
    for (let k = 1; k <= n; k++) out.push(`static int g${k}(int x) { return g${k - 1}(x) + g${k - 1}(x + ${k}); }`);
    return `${out.join('\n')}\nint f(int a, int b) { return g${n}(a); }\n`;
  },
  (r) => {
    const n = 30 + r.below(200);
    const out = ['static int h0(int x) { return x; }'];
    for (let k = 1; k <= n; k++) out.push(`static int h${k}(int x) { return h${k - 1}(x) + 1; }`);
    return `${out.join('\n')}\nint f(int a, int b) { return h${n}(a); }\n`;
  },
  (r) => `#define A0 x x\n${Array.from({ length: 10 + r.below(30) }, (_, i) => `#define A${i + 1} A${i} A${i}`).join('\n')}\nint f(int a, int b) { return A${10 + r.below(10)}; }\n`,
  (r) => `int ${'*'.repeat(100 + r.below(5000))}p;\nint f(int a, int b) { return a; }\n`,
  (r) => fn(`    return ${'9'.repeat(1 + r.below(200))}${['', 'U', 'ULL', 'LLU', 'x'][r.below(5)]};`),
  (r) => fn(`${'    {\n'.repeat(100 + r.below(1000))}    a++;\n${'    }\n'.repeat(100 + r.below(1000))}    return a;`),
  (r) => fn(`    return a ${String.fromCharCode(r.below(0x3000))} b;`),
  (r) => `#include "${['f.h', '../x.h', 'z.c', ''][r.below(4)]}"\n${BASE}`,
  (r) => fn(`    return f(a, b) + ${r.below(10)};`),
  (r) => fn(`    return table[${['a', 'b * 4096', '(unsigned)a', '-1', '512'][r.below(5)]}] / (unsigned long)${['b', 'a - a', '0'][r.below(3)]};`),
];

type Outcome = 'coded' | 'result' | 'internal' | 'hang';

/** Inputs slower than this count as hangs. */
const HANG_MS = 5000;

function runOne(text: string): { outcome: Outcome; detail?: string } {
  const started = Date.now();
  let outcome: Outcome;
  let detail: string | undefined;
  const coded = (d: CDiagnostic): Outcome => {
    if (/^C0[0-6]\d$/.test(d.code) && d.code !== 'C057' && d.span.line > 0) return 'coded';
    detail = `${d.code} ${d.message}`;
    return 'internal';
  };
  try {
    const r = parseProgram(new Map([['t.c', text], ['f.h', '#include "f.h"\n']]), ['t.c']);
    if (!r.ok) outcome = coded(r.errors[0]);
    else if (!r.program.functions.get('f')?.body) outcome = 'result';
    else {
      const params = r.program.functions.get('f')!.params;
      const args = params.map((p, i) => variable(`arg${i}`, p.type.kind === 'int' ? p.type.width : 64));
      const x = execFunction(r.program, 'f', freshMemory(r.program), args);
      outcome = x.ok ? 'result' : coded(x.error);
    }
  } catch (e) {
    outcome = 'internal';
    detail = `threw ${e instanceof Error ? e.message : String(e)}`;
  }
  if (Date.now() - started > HANG_MS) {
    detail = `took ${Date.now() - started} ms`;
    outcome = 'hang';
  }
  return { outcome, detail };
}

describe('C fuzzer', () => {
  it('gives a coded error or a result for every damaged or hostile program, in bounded time', () => {
    const rng = new Rng(20261201);
    const counts: Record<Outcome, number> = { coded: 0, result: 0, internal: 0, hang: 0 };
    const bad: string[] = [];
    let until = Infinity;
    let tried = 0;
    // Every generator once, then random inputs for 3 s.
    while (tried < HOSTILE.length || Date.now() < until) {
      if (tried === HOSTILE.length) until = Date.now() + 3000;
      const text = tried < HOSTILE.length ? HOSTILE[tried](rng) : rng.below(3) === 0 ? HOSTILE[rng.below(HOSTILE.length)](rng) : damage(BASE, rng);
      const { outcome, detail } = runOne(text);
      tried++;
      counts[outcome]++;
      if (outcome === 'internal' || outcome === 'hang') bad.push(`${outcome}: ${detail}\n${text.slice(0, 300)}`);
    }
    console.log(`C fuzzer (front end + executor): tried ${tried}, coded error ${counts.coded}, result ${counts.result}, internal ${counts.internal}, hang ${counts.hang}`);
    expect(bad).toEqual([]);
    expect(counts.coded).toBeGreaterThan(HOSTILE.length / 2);
    expect(counts.result).toBeGreaterThan(0);
  });

  it('gives an implementation error or a verdict when damaged overrides go through the verifier', async () => {
    const engine = await nodeEngine();
    const spec = oracleSpec('sys_alloc_vector')!;
    const good = 'int sys_alloc_vector(uint8_t vector)\n{\n    if (vector_table[vector] != 0)\n        return -EBUSY;\n    vector_table[vector] = current;\n    get_proc(current)->nr_vectors++;\n    return 0;\n}\n';
    const rng = new Rng(12);
    const counts = { coded: 0, verdict: 0, internal: 0, hang: 0 };
    const bad: string[] = [];
    const tries = 4;
    for (let k = 0; k < tries; k++) {
      const text = `#include "kernel.h"\n${k === 0 ? good : damage(good, rng)}`;
      const started = Date.now();
      try {
        const v = await verify({ handler: 'sys_alloc_vector', spec, implSource: text, timeoutMs: 5000 }, { engine, caches: nodeCaches() });
        expect(['verified', 'refuted', 'timeout', 'unknown', 'spec-error']).toContain(v.status);
        counts.verdict++;
      } catch (e) {
        const d = e instanceof ImplementationError ? e.diagnostics[0] : undefined;
        if (d && /^C0[0-6]\d$/.test(d.code) && d.code !== 'C057') counts.coded++;
        else {
          counts.internal++;
          bad.push(`${e instanceof Error ? e.message : String(e)}\n${text}`);
        }
      }
      if (Date.now() - started > 30_000) {
        counts.hang++;
        bad.push(`took ${Date.now() - started} ms\n${text}`);
      }
    }
    console.log(`C fuzzer (verify, sys_alloc_vector): tried ${tries}, coded error ${counts.coded}, verdict ${counts.verdict}, internal ${counts.internal}, hang ${counts.hang}`);
    expect(bad).toEqual([]);
    expect(counts.verdict).toBeGreaterThan(0);
  });
});
