/**
 * Static checks Python itself makes before running anything (the errors
 * CPython reports as SyntaxError at compile time), plus the scope analysis
 * the interpreter needs: which names each function, lambda and generator
 * expression binds locally (a list comprehension binds its names in the
 * scope around it, as in Python 2). Annotates the tree in place (`locals`).
 */
import type * as A from './ast.ts';
import { structureError } from './errors.ts';

/** Checks the module and fills in `locals`. Throws SpecError on the first problem. */
export function checkModule(mod: A.Module): void {
  for (const s of mod.body) stmt(s, undefined);
}

/**
 * `scope` is the local names of the enclosing function (undefined at module
 * level), which list comprehensions add their names to.
 */
function stmt(s: A.Stmt, scope: Set<string> | undefined): void {
  const expr = (e: A.Expr) => exprIn(e, scope);
  switch (s.kind) {
    case 'FunctionDef': {
      params(s.params);
      for (const p of s.params) if (p.default) expr(p.default);
      const locals = bodyLocals(s.params, s.body);
      s.locals = locals;
      for (const b of s.body) stmt(b, locals);
      return;
    }
    case 'Return':
      if (!scope) throw structureError(s.span, "'return' outside function");
      if (s.value) expr(s.value);
      return;
    case 'Assign':
      for (const t of s.targets) expr(t);
      expr(s.value);
      return;
    case 'AugAssign':
      expr(s.target);
      expr(s.value);
      return;
    case 'ExprStmt':
      expr(s.expr);
      return;
    case 'If':
      expr(s.test);
      for (const b of s.body) stmt(b, scope);
      for (const b of s.orelse) stmt(b, scope);
      return;
    case 'Assert':
      expr(s.test);
      if (s.msg) expr(s.msg);
      return;
    case 'Print':
      if (s.dest) expr(s.dest);
      for (const v of s.values) expr(v);
      return;
    case 'ImportFrom':
      if (scope && s.names === '*') throw structureError(s.span, "'import *' is only allowed at module level");
      return;
    case 'Pass':
    case 'Import':
      return;
  }
  const never: never = s;
  return never;
}

function params(ps: readonly A.Param[]): void {
  const seen = new Set<string>();
  let sawDefault = false;
  let sawStar = false;
  for (const p of ps) {
    if (seen.has(p.name)) throw structureError(p.span, `duplicate argument '${p.name}' in function definition`);
    seen.add(p.name);
    if (sawStar) throw structureError(p.span, "parameters after '*args' are not supported");
    if (p.star) {
      sawStar = true;
      continue;
    }
    if (p.default) sawDefault = true;
    else if (sawDefault) throw structureError(p.span, 'non-default argument follows default argument');
  }
}

function exprIn(e: A.Expr, scope: Set<string> | undefined): void {
  const expr = (x: A.Expr) => exprIn(x, scope);
  switch (e.kind) {
    case 'Name':
    case 'Constant':
      return;
    case 'Tuple':
    case 'List':
      for (const x of e.elts) expr(x);
      return;
    case 'Attribute':
      expr(e.value);
      return;
    case 'Subscript':
      expr(e.value);
      expr(e.index);
      return;
    case 'Slice':
      if (e.lower) expr(e.lower);
      if (e.upper) expr(e.upper);
      if (e.step) expr(e.step);
      return;
    case 'Call': {
      expr(e.func);
      for (const a of e.args) expr(a);
      const seen = new Set<string>();
      for (const k of e.keywords) {
        if (seen.has(k.name)) throw structureError(k.span, `keyword argument repeated: ${k.name}`);
        seen.add(k.name);
        expr(k.value);
      }
      return;
    }
    case 'BinOp':
      expr(e.left);
      expr(e.right);
      return;
    case 'UnaryOp':
      expr(e.operand);
      return;
    case 'BoolOp':
      for (const x of e.values) expr(x);
      return;
    case 'Compare':
      expr(e.left);
      for (const x of e.comparators) expr(x);
      return;
    case 'IfExp':
      expr(e.test);
      expr(e.body);
      expr(e.orelse);
      return;
    case 'Lambda': {
      params(e.params);
      for (const p of e.params) if (p.default) expr(p.default);
      const locals = new Set(e.params.map((p) => p.name));
      e.locals = locals;
      exprIn(e.body, locals);
      return;
    }
    case 'Comprehension': {
      // A list comprehension's names belong to the scope around it (a
      // module's are globals); a generator expression has its own, and its
      // first iterable is evaluated outside it.
      const names = e.list ? scope : new Set<string>();
      for (const [i, g] of e.generators.entries()) {
        if (names) targetNames(g.target, names);
        exprIn(g.iter, i === 0 ? scope : names);
        for (const c of g.ifs) exprIn(c, names);
      }
      if (!e.list) e.locals = names;
      exprIn(e.elt, names);
      return;
    }
    case 'Starred':
    case 'Repr':
      expr(e.value);
      return;
  }
  const never: never = e;
  return never;
}

function targetNames(t: A.Expr, into: Set<string>): void {
  if (t.kind === 'Name') into.add(t.id);
  else if (t.kind === 'Tuple' || t.kind === 'List') for (const x of t.elts) targetNames(x, into);
}

/** Names a function body binds: parameters, assignment targets, nested defs and imports. */
function bodyLocals(ps: readonly A.Param[], body: readonly A.Stmt[]): Set<string> {
  const out = new Set(ps.map((p) => p.name));
  const visit = (s: A.Stmt): void => {
    switch (s.kind) {
      case 'FunctionDef':
        out.add(s.name);
        return;
      case 'Assign':
        for (const t of s.targets) targetNames(t, out);
        return;
      case 'AugAssign':
        targetNames(s.target, out);
        return;
      case 'If':
        s.body.forEach(visit);
        s.orelse.forEach(visit);
        return;
      case 'Import':
        for (const n of s.names) out.add(n.asname ?? n.module[0]);
        return;
      case 'ImportFrom':
        if (s.names !== '*') for (const n of s.names) out.add(n.asname ?? n.name);
        return;
      case 'Return':
      case 'ExprStmt':
      case 'Pass':
      case 'Assert':
      case 'Print':
        return;
    }
    const never: never = s;
    return never;
  };
  body.forEach(visit);
  return out;
}
