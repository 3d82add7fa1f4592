import { describe, expect, it } from 'vitest';
import type * as A from '../../src/core/dialect/ast.ts';
import { lintModule } from '../../src/core/dialect/lint.ts';
import { SpecError } from '../../src/core/dialect/errors.ts';
import { parseSpec } from '../../src/core/dialect/index.ts';
import { parseModule } from '../../src/core/dialect/parser.ts';

/** A compact s-expression of an expression tree, to check shape and precedence. */
function sx(e: A.Expr): string {
  switch (e.kind) {
    case 'Name':
      return e.id;
    case 'Constant':
      return e.value === null ? 'None' : typeof e.value === 'string' ? JSON.stringify(e.value) : String(e.value);
    case 'BinOp':
      return `(${e.op} ${sx(e.left)} ${sx(e.right)})`;
    case 'UnaryOp':
      return `(${e.op} ${sx(e.operand)})`;
    case 'BoolOp':
      return `(${e.op} ${e.values.map(sx).join(' ')})`;
    case 'Compare':
      return `(${[sx(e.left), ...e.ops.flatMap((o, i) => [o, sx(e.comparators[i])])].join(' ')})`;
    case 'Attribute':
      return `${sx(e.value)}.${e.attr}`;
    case 'Subscript':
      return `${sx(e.value)}[${sx(e.index)}]`;
    case 'Call':
      return `${sx(e.func)}(${[...e.args.map(sx), ...e.keywords.map((k) => `${k.name}=${sx(k.value)}`)].join(', ')})`;
    case 'Tuple':
      return `(tuple ${e.elts.map(sx).join(' ')})`;
    case 'List':
      return `[${e.elts.map(sx).join(' ')}]`;
    case 'IfExp':
      return `(ifexp ${sx(e.test)} ${sx(e.body)} ${sx(e.orelse)})`;
    case 'Lambda':
      return `(lambda ${e.params.map((p) => p.name).join(' ')}: ${sx(e.body)})`;
    case 'Starred':
      return `*${sx(e.value)}`;
    case 'Comprehension':
      return `(comp ${sx(e.elt)} ${e.generators.map((g) => `for ${sx(g.target)} in ${sx(g.iter)}`).join(' ')})`;
    case 'Slice':
      return `(slice ${e.lower ? sx(e.lower) : ''}:${e.upper ? sx(e.upper) : ''})`;
    case 'Repr':
      return `(repr ${sx(e.value)})`;
    case 'Yield':
      return `(yield${e.value ? ` ${sx(e.value)}` : ''})`;
  }
}

const expr = (src: string) => {
  const m = parseModule(`${src}\n`);
  const s = m.body[0];
  if (s.kind !== 'ExprStmt') throw new Error('not an expression');
  return s.expr;
};

function parseError(src: string): SpecError {
  try {
    lintModule(parseModule(src));
  } catch (e) {
    if (e instanceof SpecError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('parser', () => {
  it('follows Python precedence', () => {
    expect(sx(expr('a + b * c - d'))).toBe('(- (+ a (* b c)) d)');
    expect(sx(expr('a & b == c'))).toBe('((& a b) == c)');
    expect(sx(expr('not a == b and c or d'))).toBe('(or (and (not (a == b)) c) d)');
    expect(sx(expr('-x ** 2'))).toBe('(- (** x 2))');
    expect(sx(expr('1 << x | y ^ z'))).toBe('(| (<< 1 x) (^ y z))');
    expect(sx(expr('a < b <= c'))).toBe('(a < b <= c)');
    expect(sx(expr('x is not None'))).toBe('(x is not None)');
    expect(sx(expr('a not in b'))).toBe('(a not in b)');
    expect(sx(expr('x if c else y'))).toBe('(ifexp c x y)');
    // Python 2: <> is !=, backquotes are repr.
    expect(sx(expr('`a <> b, c`'))).toBe('(repr (tuple (a != b) c))');
  });

  it('parses the state API forms', () => {
    expect(sx(expr('old.procs[pid].ofile(fd)'))).toBe('old.procs[pid].ofile(fd)');
    expect(sx(expr('new.files[fn].refcnt[(pid, fd)]'))).toBe('new.files[fn].refcnt[(tuple pid fd)]');
    expect(sx(expr('z3.And(*conds)'))).toBe('z3.And(*conds)');
    expect(sx(expr('f(x, oldfn=g)'))).toBe('f(x, oldfn=g)');
    expect(sx(expr('lambda pn, idx, oldfn: oldfn(pn, idx)'))).toBe('(lambda pn idx oldfn: oldfn(pn, idx))');
    expect(sx(expr('z3.And([x == i for i in range(4)])'))).toBe('z3.And((comp (x == i) for i in range(4)))');
    expect(sx(expr('xs[1:]'))).toBe('xs[(slice 1:)]');
  });

  it('parses statements: chained and tuple assignment, augmented assignment, elif, imports', () => {
    const m = parseModule(
      [
        'from hv6py.kernel.spec.helpers import (',
        '    is_pid_valid,',
        '    is_fd_valid,',
        ')',
        'import hv6py.kernel.spec.datatypes as dt',
        'a = b = 1',
        'c, d = 1, 2',
        'new.procs[o].nr_pages[pn] += 1',
        'if x:',
        '    pass',
        'elif y: z = 1',
        'else:',
        '    z = 2',
        'clone_proc = sys_clone',
      ].join('\n'),
    );
    const kinds = m.body.map((s) => s.kind);
    expect(kinds).toEqual(['ImportFrom', 'Import', 'Assign', 'Assign', 'AugAssign', 'If', 'Assign']);
    const from = m.body[0] as A.ImportFrom;
    expect(from.module).toEqual(['hv6py', 'kernel', 'spec', 'helpers']);
    expect(from.names !== '*' && from.names.map((n) => n.name)).toEqual(['is_pid_valid', 'is_fd_valid']);
    const imp = m.body[1] as A.Import;
    expect(imp.names[0]).toMatchObject({ module: ['hv6py', 'kernel', 'spec', 'datatypes'], asname: 'dt' });
    expect((m.body[2] as A.Assign).targets).toHaveLength(2);
    expect(sx((m.body[3] as A.Assign).targets[0])).toBe('(tuple c d)');
    const aug = m.body[4] as A.AugAssign;
    expect([aug.op, sx(aug.target)]).toEqual(['+', 'new.procs[o].nr_pages[pn]']);
    const iff = m.body[5] as A.If;
    expect(iff.orelse[0].kind).toBe('If');
    expect((iff.orelse[0] as A.If).orelse[0].kind).toBe('Assign');
  });

  it('gives nodes spans that cover their source text', () => {
    const src = 'def sys_kill(old, pid):\n    return z3.And(is_pid_valid(pid),\n                  pid != 1), old\n';
    const m = parseModule(src);
    const f = m.body[0] as A.FunctionDef;
    expect(f.nameSpan).toMatchObject({ line: 1, column: 5, endColumn: 13 });
    const ret = f.body[0] as A.Return;
    expect(ret.span).toMatchObject({ line: 2, column: 5, endLine: 3, endColumn: 33 });
    const tuple = ret.value as A.TupleExpr;
    const call = tuple.elts[0] as A.Call;
    expect(src.slice(call.span.offset, call.span.endOffset)).toBe('z3.And(is_pid_valid(pid),\n                  pid != 1)');
    expect(src.slice(call.args[1].span.offset, call.args[1].span.endOffset)).toBe('pid != 1');
    const attr = call.func as A.Attribute;
    expect(src.slice(attr.attrSpan.offset, attr.attrSpan.endOffset)).toBe('And');
  });

  it('computes function locals statically', () => {
    const m = parseModule('def f(a, b=1):\n    c = a\n    d, e = 1, 2\n    def g(): pass\n    return c\n');
    lintModule(m);
    expect([...(m.body[0] as A.FunctionDef).locals!].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'g']);
  });

  it('reports what it expected', () => {
    const e = parseError('def f(x)\n    return x\n');
    expect([e.code, e.message, e.span.line, e.span.column]).toEqual(['SPEC002', "expected ':' but found end of line", 1, 9]);
    const e2 = parseError('x = (1 + \n');
    expect(e2.message).toBe('expected an expression but found end of file');
    const e3 = parseError('x = 1\n    y = 2\n');
    expect([e3.code, e3.message, e3.span.line]).toEqual(['SPEC002', 'unexpected indent', 2]);
    const e4 = parseError('def f():\nreturn 1\n');
    expect(e4.message).toBe("expected an indented block but found keyword 'return'");
  });

  it('rejects constructs outside the dialect with SPEC003', () => {
    for (const [src, what] of [
      ['while x:\n    pass\n', "'while' loops"],
      ['for i in x:\n    pass\n', "'for' loops"],
      ['class A:\n    pass\n', 'class definitions'],
      ['with x:\n    pass\n', "'with' statements"],
      ['try:\n    pass\nexcept E:\n    pass\n', "'try' statements"],
      ['def f():\n    global g\n', "'global' declarations"],
      ['def f():\n    nonlocal g\n', "'nonlocal' declarations"],
      ['x = {}\n', 'dict and set literals'],
      ['@dec\ndef f(): pass\n', 'decorators'],
      ['x = f"{y}"\n', 'f-strings'],
      ['del x\n', "'del' statements"],
      ['raise E\n', "'raise' statements"],
    ] as const) {
      const e = parseError(src);
      expect([e.code, e.message]).toEqual(['SPEC003', `${what} are not supported in specs`]);
    }
  });

  it('reports compile-time structure errors with SPEC026', () => {
    expect(parseError('return 1\n').message).toBe("'return' outside function");
    expect(parseError('def f(a, a): pass\n').message).toBe("duplicate argument 'a' in function definition");
    expect(parseError('def f(a=1, b): pass\n').message).toBe('non-default argument follows default argument');
    expect(parseError('f(x=1, x=2)\n').message).toBe('keyword argument repeated: x');
  });

  it('limits nesting instead of overflowing the stack', () => {
    const deep = `x = ${'('.repeat(5000)}1${')'.repeat(5000)}\n`;
    const e = parseError(deep);
    expect([e.code, e.message]).toEqual(['SPEC019', 'code nested too deeply (more than 100 levels)']);
  });

  it('parseSpec returns data, never throws', () => {
    const ok = parseSpec('import z3\n');
    expect(ok.ok).toBe(true);
    const bad = parseSpec('def (:\n');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('SPEC002');
  });
});
