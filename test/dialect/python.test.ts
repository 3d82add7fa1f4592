/**
 * The Python side of the dialect: imports under every spelling specs use,
 * entry lookup through hv6 aliases, and Python semantics on Python values.
 */
import { describe, expect, it } from 'vitest';
import { freshState } from '../../src/core/kernel/state.ts';
import { bvConst, variable } from '../../src/core/smt/term.ts';
import { callSpecFunction, runSpec } from '../../src/core/dialect/index.ts';
import { termOf } from '../../src/core/dialect/values.ts';
import { PyList, PyLong, PyTuple, PyUnicode, type PyValue } from '../../src/core/dialect/objects.ts';

function value(src: string): PyValue {
  const r = callSpecFunction(`${src}\n`, 'f');
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  return r.value;
}

const expr = (e: string, prelude = '') => value(`${prelude}\ndef f():\n    return ${e}`);

describe('imports', () => {
  it('binds the built-in modules under every spelling', () => {
    const src = `from __future__ import print_function
import z3
from z3 import And, ULT
from z3 import *
from libirpy import util
import libirpy.util as util2
import util as util3
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec import datatypes as dt2
import datatypes as dt3
from hv6py.kernel.spec.datatypes import *
from hv6py.kernel.spec.helpers import (
    is_pid_valid,
    is_fd_valid,
)
from helpers import is_fn_valid as fnok
from hv6py.kernel.spec.base import Accessor, BaseStruct, Struct, Map, Refcnt, Refcnt2
import hv6py.kernel.spec.helpers
import types
import copy

def f():
    return (util is util2 and util2 is util3, dt is dt2 and dt2 is dt3, NPROC, And is z3.And,
            hv6py.kernel.spec.helpers.is_pid_valid is is_pid_valid, fnok(1), BitVecVal(3, 8))
`;
    const v = value(src) as PyTuple;
    expect(v.items.slice(0, 4)).toEqual([true, true, 64n, true]);
    expect(v.items[4]).toBe(true);
    expect(termOf(v.items[6])).toBe(bvConst(3n, 8));
  });

  it('finds the entry by handler name or hv6 alias', () => {
    const body = (name: string, alias = '') => `import z3
def ${name}(old, pid, pml4, stack, hvm):
    return z3.BoolVal(True), old
${alias}`;
    const args = ['pid', 'pml4', 'stack', 'hvm'].map((n) => variable(n, 64));
    const a = runSpec(body('sys_clone', 'clone_proc = sys_clone'), 'clone_proc', freshState(), args);
    const b = runSpec(body('sys_clone'), 'clone_proc', freshState(), args);
    const c = runSpec(body('clone_proc'), 'clone_proc', freshState(), args);
    expect([a.ok && a.entryName, b.ok && b.entryName, c.ok && c.entryName]).toEqual(['clone_proc', 'sys_clone', 'clone_proc']);
    const wrongArgs = runSpec(body('clone_proc'), 'clone_proc', freshState(), args.slice(1));
    expect(!wrongArgs.ok && [wrongArgs.error.code, wrongArgs.error.message]).toEqual([
      'SPEC030',
      'clone_proc takes 4 arguments (pid, pml4, stack, hvm) but 3 were given',
    ]);
  });
});

describe('Python values', () => {
  it('int arithmetic follows Python (floor division and modulo, bigints)', () => {
    expect(expr('(-7 // 2, -7 % 2, 7 % -2, 2 ** 70, 1 << 64, -1 >> 3, ~5, 7 / 2)')).toEqual(
      new PyTuple([-4n, 1n, -1n, new PyLong(2n ** 70n), new PyLong(1n << 64n), -1n, -6n, 3n]),
    );
    expect(expr('(True + True, True & False, 3 == 3 == 3, 1 < 2 < 2)')).toEqual(new PyTuple([2n, false, true, false]));
  });

  it('caps ints at 4096 bits exactly, whatever builds them', () => {
    // 2**1400 has 1401 bits; the ** pre-check once took it for more than 4096.
    expect(expr('(2 ** 1400, 3 ** 2584 > 0, -2 ** 4095 < 0, (1 << 4095) + ((1 << 4095) - 1) > 0)')).toEqual(new PyTuple([new PyLong(2n ** 1400n), true, true, true]));
    for (const big of ['2 ** 4096', '3 ** 2585', '(1 << 4095) * 2', '(1 << 4095) + (1 << 4095)', '1 << 4096']) {
      const r = callSpecFunction(`def f():\n    return ${big}\n`, 'f');
      expect(!r.ok && [r.error.code, r.error.message], big).toEqual(['SPEC028', 'integer too large (more than 4096 bits)']);
    }
  });

  it('and/or return operands; conditional expressions; chained comparisons', () => {
    expect(expr('(0 or 5, 3 and 0, None or "x", 1 if [] else 2)')).toEqual(new PyTuple([5n, 0n, 'x', 2n]));
  });

  it('tuples, lists, slices, comprehensions, unpacking and builtins', () => {
    const src = `
def helper(a, b=10, *rest):
    return a + b + len(rest)

def f():
    xs = [i * i for i in range(6) if i % 2 == 0]
    a, (b, c) = 1, (2, 3)
    ys = list(range(3))
    ys.append(9)
    ys[0] += 5
    return (xs, xs[-1], xs[1:], ys, a + b + c, helper(1), helper(1, 2, 3, 4), helper(b=1, a=2),
            min(3, 1, 2), max([4, 7]), sum([1, 2, 3]), 'ab' * 2, (1, 2) + (3,), 2 in xs, tuple(zip([1, 2], 'ab')))
`;
    const v = value(src) as PyTuple;
    expect(v.items).toEqual([
      new PyList([0n, 4n, 16n]),
      16n,
      new PyList([4n, 16n]),
      new PyList([5n, 1n, 2n, 9n]),
      6n,
      11n,
      5n,
      3n,
      1n,
      7n,
      6n,
      'abab',
      new PyTuple([1n, 2n, 3n]),
      false,
      new PyTuple([new PyTuple([1n, 'a']), new PyTuple([2n, 'b'])]),
    ]);
  });

  it('closures bind late and functions see module names defined after them', () => {
    const src = `
def f():
    fs = [lambda: k * 2 for k in range(3)]
    return (fs[0](), later())

def later():
    return LIMIT

LIMIT = 7
`;
    expect(value(src)).toEqual(new PyTuple([4n, 7n]));
  });
});

describe('sizes', () => {
  it('str() of a huge term is cut short, as z3py elides, within the string bound', () => {
    const prelude = "import z3\nbig = [z3.BitVec('x', 16) != i for i in range(200)]\nterm = z3.Or(*[z3.And(z3.BitVec('y', 16) == j, *big) for j in range(2000)])";
    const s = expr('len(str(term))', prelude);
    expect(s).toBeGreaterThan(90_000n);
    expect(s).toBeLessThanOrEqual(100_100n);
  });

  it('refuses a list built past 100000 items by unpacking or repetition, never cutting one short', () => {
    for (const big of ['[*range(60000), *range(60000)]', '[1] * 100001', '(1, 2) * 50001']) {
      const r = callSpecFunction(`def f():\n    return ${big}\n`, 'f');
      expect(!r.ok && [r.error.code, r.error.message], big).toEqual(['SPEC023', 'sequence too long']);
    }
    expect(expr('(len([1] * 100000), [] * 2 ** 4000, "ab" * -3)')).toEqual(new PyTuple([100000n, new PyList([]), '']));
  });
});

describe('Python 2.7, as hv6 runs specs', () => {
  it('has the print statement, backquotes, <>, 0777 octals, ur strings and a leading byte-order mark', () => {
    // What Python 2.7 gives, run on the same text: (5, [2, 10], '[2, 10]', 511, u'A\\n', "'a'", True)
    const src = `\ufeffdef f():
    xs = [1, 3, 5]
    print 'n', len(xs),
    print >>None, xs
    print
    ys = [x * 2 for x in xs if x <> 3]
    return (x, ys, \`ys\`, 0777, ur'\\u0041\\n', \`'a'\`, 1 <> 2)
`;
    expect(value(src)).toEqual(new PyTuple([5n, new PyList([2n, 10n]), '[2, 10]', 511n, new PyUnicode('A\\n'), "'a'", true]));
  });

  it('reads non-ASCII text only where Python 2.7 does: after a byte-order mark or a coding line on line 1, or on line 2 below a comment', () => {
    // Python 2.7.18 runs the first three and refuses the last two ("Non-ASCII character ... but no encoding declared");
    // the byte string holds the text's UTF-8 bytes.
    const body = "def f():\n    # caf\u00e9\n    return 'd\u00e9j\u00e0'\n";
    expect(value(`\ufeff${body}`)).toBe('d\xc3\xa9j\xc3\xa0');
    expect(value(`# -*- coding: utf-8 -*-\n${body}`)).toBe('d\xc3\xa9j\xc3\xa0');
    expect(value(`#!/usr/bin/env python\n# vim: set fileencoding=utf-8 :\n${body}`)).toBe('d\xc3\xa9j\xc3\xa0');
    for (const src of [body, `x = 1  # coding: utf-8\n${body}`]) {
      const r = callSpecFunction(src, 'f');
      expect(r.ok ? 'ok' : `${r.error.code} ${r.error.span?.line}:${r.error.span?.column}`).toMatch(/^SPEC001 [23]:10$/);
    }
  });

  it('binds a list comprehension\'s names in the enclosing scope (a generator expression keeps its own)', () => {
    expect(value('def f():\n    [k for k in range(3)]\n    return k\n')).toBe(2n);
    expect(value('[g for g in range(4)]\ndef f():\n    return g\n')).toBe(3n);
    const early = callSpecFunction('def f():\n    y = k\n    [k for k in range(3)]\n    return y\n', 'f');
    expect(!early.ok && [early.error.code, early.error.message]).toEqual(['SPEC005', "local variable 'k' referenced before assignment"]);
    const gen = callSpecFunction('def f():\n    list(j for j in range(3))\n    return j\n', 'f');
    expect(!gen.ok && gen.error.code).toBe('SPEC005');
  });

  it('keeps print a name under print_function, and print >>x needs a file', () => {
    expect(value('from __future__ import print_function\ndef f():\n    print(1, 2)\n    return print is not None\n')).toBe(true);
    const r = callSpecFunction('def f():\n    print >>3, "x"\n', 'f');
    expect(!r.ok && [r.error.code, r.error.message]).toEqual(['SPEC006', "int has no attribute 'write'"]);
    const comma = callSpecFunction('def f():\n    print >>None,\n', 'f');
    expect(!comma.ok && comma.error.code).toBe('SPEC002');
  });
});
