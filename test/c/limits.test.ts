/**
 * The limits of docs/c-errors.md (C022, C060-C063): hostile overrides that
 * used to overflow the JavaScript stack (reported as C057 at device.c:1:1,
 * or as a raw RangeError from the verifier) or to run for minutes now give
 * a coded error at the construct that crossed the limit, in seconds.
 */
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine } from '../../src/z3/node.ts';
import { type CDiagnostic, execFunction, freshMemory, parseProgram } from '../../src/core/c/index.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { variable } from '../../src/core/smt/term.ts';
import { ImplementationError, verify } from '../../src/core/verify/index.ts';

const HEAD = '#include "kernel.h"\n';

/**
 * The first diagnostic of parsing `text` alone (a unit `t.c` with a global
 * array, no kernel, so that each case is quick) and running `f(int a, int b)`.
 */
function firstError(body: string): CDiagnostic | undefined {
  const text = `unsigned long table[512];\n${body}`;
  const r = parseProgram(new Map([['t.c', text]]), ['t.c']);
  if (!r.ok) return r.errors[0];
  const x = execFunction(r.program, 'f', freshMemory(r.program), [variable('a', 32), variable('b', 32)]);
  return x.ok ? undefined : x.error;
}

const where = (d: CDiagnostic | undefined) => d && `${d.code} ${d.file}:${d.span.line}:${d.span.column}`;

describe('limits of the C front end and executor', () => {
  it('refuses a 2000-term expression at the expression, not as an internal error', () => {
    const text = `int f(int a, int b)\n{\n    return ${Array(2000).fill('a').join(' + ')};\n}\n`;
    expect(where(firstError(text))).toBe('C022 t.c:4:12');
  });

  it('refuses right-nested chains and declarators before the parser overflows', () => {
    const assign = `int f(int a, int b)\n{\n    int x;\n    ${'x = '.repeat(20000)}a;\n    return x;\n}\n`;
    expect(firstError(assign)?.code).toBe('C022');
    const ternary = `int f(int a, int b)\n{\n    return ${'a ? 1 : '.repeat(20000)}0;\n}\n`;
    expect(firstError(ternary)?.code).toBe('C022');
    const stars = `int ${'*'.repeat(20000)}p;\n`;
    expect(firstError(stars)?.code).toBe('C022');
    const incs = `int f(int a, int b)\n{\n    return ${'++'.repeat(20000)}a;\n}\n`;
    expect(firstError(incs)?.code).toBe('C022');
  });

  it('refuses a loop that keeps growing one value, at the assignment', () => {
    const text = `int f(int a, int b)\n{\n    int i;\n    int x = 0;\n    for (i = 0; i < 3000; i++)\n        x = x * 3 + b;\n    return x;\n}\n`;
    expect(where(firstError(text))).toBe('C061 t.c:7:9');
    const writes = `int f(int a, int b)\n{\n    int i;\n    for (i = 0; i < 4096; i++)\n        table[a] = table[b] + i;\n    return 0;\n}\n`;
    expect(where(firstError(writes))).toBe('C061 t.c:6:9');
  });

  it('refuses a path explosion (a loop with a return in its body) quickly', () => {
    const text = `int f(int a, int b)\n{\n    int i;\n    for (i = 0; i < 20000; i++)\n        if (a == i)\n            return i;\n    return 0;\n}\n`;
    expect(where(firstError(text))).toBe('C062 t.c:7:13');
  });

  it('refuses calls that double at every level, and calls nested too deep', () => {
    const doubling = ['static int f0(int x) { if (x == 3) return 1; return 2; }'];
    for (let k = 1; k <= 18; k++) doubling.push(`static int f${k}(int x) { return f${k - 1}(x) + f${k - 1}(x + ${k}); }`);
    doubling.push('int f(int a, int b) { return f18(a); }');
    expect(firstError(doubling.join('\n'))?.code).toBe('C062');
    const chain = ['static int g0(int x) { return x; }'];
    for (let k = 1; k <= 80; k++) chain.push(`static int g${k}(int x) { return g${k - 1}(x) + 1; }`);
    chain.push('int f(int a, int b) { return g80(a); }');
    expect(firstError(chain.join('\n'))?.code).toBe('C060');
  });

  it('refuses a loop of 4096 page writes at the write (the verifier used to overflow reading it)', async () => {
    const text = `${HEAD}int sys_dup(int oldfd, pid_t pid, int newfd)\n{\n    int i;\n    for (i = 0; i < 4096; i++)\n        pages[pid][i % 512] = i;\n    return 0;\n}\n`;
    const engine = await nodeEngine();
    const err = await verify({ handler: 'sys_dup', spec: oracleSpec('sys_dup')!, implSource: text }, { engine, caches: nodeCaches() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ImplementationError);
    expect(where((err as ImplementationError).diagnostics[0])).toBe('C061 override.c:6:9');
  });
});
