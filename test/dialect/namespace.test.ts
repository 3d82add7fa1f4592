/**
 * The namespace a spec runs in: hv6's specs.py globals without any import
 * line, every import spelling upstream specs and answers use, imports that
 * rebind a prelude name, and nothing of JavaScript's object model reachable
 * by any name (each such name gives the error Python would: unknown module,
 * name or attribute). Long flat chains end in SPEC019, never SPEC099.
 */
import { describe, expect, it } from 'vitest';
import { callSpecFunction, lintSpec } from '../../src/core/dialect/index.ts';
import { OBJECT_PROTOTYPE_NAMES } from '../object-prototype.ts';

const RET = '    return z3.BoolVal(True), old\n';
const entry = (body: string, head = '') => `${head}def sys_kill(old, pid):\n${body}${RET}`;
const codes = (src: string) => lintSpec(src, 'sys_kill').map((d) => d.code);

describe('the specs.py namespace', () => {
  it('gives every prelude name without imports', () => {
    const names = ['z3', 'util', 'dt', 'types', 'Accessor', 'BaseStruct', 'Struct', 'Map', 'Refcnt', 'Refcnt2', 'is_dmapn_valid', 'is_fd_valid', 'is_fn_valid', 'is_intremap_valid', 'is_pcipn_valid', 'is_pid_valid', 'is_pn_valid'];
    expect(codes(entry(names.map((n) => `    x = ${n}\n`).join('')))).toEqual([]);
    const r = callSpecFunction('def f():\n    return z3.ULT(util.i64(1), dt.NPROC)\n', 'f');
    expect(r.ok && String(r.value)).toBe('True');
  });

  it('accepts every import spelling upstream specs and answers use', () => {
    const heads = [
      'import z3',
      'from z3 import *',
      'import libirpy.util as util',
      'from libirpy import util',
      'import hv6py.kernel.spec.datatypes as dt',
      'from hv6py.kernel.spec import datatypes as dt',
      'import datatypes as dt',
      'from helpers import is_pid_valid, is_fd_valid',
      'from hv6py.kernel.spec.helpers import *',
      'from hv6py.base import Accessor, BaseStruct, Struct, Map, Refcnt, Refcnt2',
      'from hv6py.kernel.spec.base import *',
      'from base import *',
      'import types',
      'import copy',
      'from __future__ import print_function',
    ];
    for (const h of heads) expect(codes(entry('    x = is_pid_valid(pid)\n', `${h}\n`)), h).toEqual([]);
  });

  it('lets an import or a definition rebind a prelude name', () => {
    expect(codes(entry('    x = util.i64(1)\n', 'import z3 as util\n'))).toEqual(['SPEC006']);
    const r = callSpecFunction('def is_pid_valid(p):\n    return 7\ndef f():\n    return is_pid_valid(1)\n', 'f');
    expect(r.ok && r.value).toBe(7n);
    const s = callSpecFunction('dt = 3\ndef f():\n    return dt\n', 'f');
    expect(s.ok && s.value).toBe(3n);
  });
});

describe('nothing of JavaScript reachable', () => {
  it.each([...OBJECT_PROTOTYPE_NAMES, 'prototype'])('%s', (n) => {
    // A plain Python name wherever a statement or an expression may start.
    const r = callSpecFunction(`${n} = 1\ndef f(${n}):\n    ${n} += 2\n    ${n} <<= 1\n    return ${n}\n`, 'f', [3n]);
    expect(r.ok && r.value, `${n} as a name`).toBe(10n);
    expect(codes(entry(`    ${n}(1)\n`)), `${n}(1)`).toEqual(['SPEC005']);
    expect(codes(entry(RET, `import ${n}\n`)), `import ${n}`).toEqual(['SPEC004']);
    expect(codes(entry(RET, `from ${n} import x\n`)), `from ${n} import x`).toEqual(['SPEC004']);
    expect(codes(entry(RET, `from z3 import ${n}\n`)), `from z3 import ${n}`).toEqual(['SPEC004']);
    expect(codes(entry(RET, `from hv6py import ${n}\n`))).toEqual(['SPEC004']);
    expect(codes(entry(`    x = ${n}\n`)), `x = ${n}`).toEqual(['SPEC005']);
    for (const obj of ['old', 'z3', 'dt', 'dt.proc_state', 'util', 'pid', '(1)', "'a'", '[]', '()', 'old.procs', 'old.procs[pid]', 'old.procs[pid].ofile', 'old.procs[pid].nr_fds', 'is_pid_valid']) {
      const c = codes(entry(`    x = ${obj}.${n}\n`));
      expect(c.length, `${obj}.${n}`).toBe(1);
      expect(['SPEC006', 'SPEC007'], `${obj}.${n}: ${c}`).toContain(c[0]);
    }
  });
});

describe('long chains', () => {
  const chains = [
    `x = ${Array(3000).fill('1').join(' + ')}`,
    `x = ${Array(3000).fill('pid').join(' + ')}`,
    `x = old${'.procs'.repeat(3000)}`,
    `x = old.procs${'[pid]'.repeat(3000)}`,
    `x = util.i64${'(1)'.repeat(3000)}`,
  ];
  it.each(chains.map((c) => [c.slice(0, 30), c]))('%s... ends in SPEC019', (_label, c) => {
    expect(codes(entry(`    ${c}\n`))).toEqual(['SPEC019']);
  });

  it('a chain of 500 terms still evaluates', () => {
    const r = callSpecFunction(`def f():\n    return ${Array(500).fill('1').join(' + ')}\n`, 'f');
    expect(r.ok && r.value).toBe(500n);
  });
});
