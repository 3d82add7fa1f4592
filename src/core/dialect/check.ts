/**
 * Static checks Python itself makes before running anything (the errors
 * CPython reports as SyntaxError at compile time), plus the scope analysis
 * the interpreter needs: which names each function, lambda and
 * comprehension binds locally. Annotates the tree in place (`locals`).
 */
import type * as A from './ast.ts';
import { structureError } from './errors.ts';

/** Checks the module and fills in `locals`. Throws SpecError on the first problem. */
export function checkModule(mod: A.Module): void {
  for (const s of mod.body) stmt(s, false);
}

function stmt(s: A.Stmt, inFunction: boolean): void {
  switch (s.kind) {
    case 'FunctionDef':
      params(s.params);
      for (const p of s.params) if (p.default) expr(p.default);
      s.locals = bodyLocals(s.params, s.body);
      for (const b of s.body) stmt(b, true);
      return;
    case 'Return':
      if (!inFunction) throw structureError(s.span, "'return' outside function");
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
      for (const b of s.body) stmt(b, inFunction);
      for (const b of s.orelse) stmt(b, inFunction);
      return;
    case 'Assert':
      expr(s.test);
      if (s.msg) expr(s.msg);
      return;
    case 'ImportFrom':
      if (inFunction && s.names === '*') throw structureError(s.span, "'import *' is only allowed at module level");
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

function expr(e: A.Expr): void {
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
    case 'Lambda':
      params(e.params);
      for (const p of e.params) if (p.default) expr(p.default);
      e.locals = new Set(e.params.map((p) => p.name));
      expr(e.body);
      return;
    case 'Comprehension': {
      const names = new Set<string>();
      for (const g of e.generators) {
        targetNames(g.target, names);
        expr(g.iter);
        for (const c of g.ifs) expr(c);
      }
      e.locals = names;
      expr(e.elt);
      return;
    }
    case 'Starred':
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
        return;
    }
    const never: never = s;
    return never;
  };
  body.forEach(visit);
  return out;
}
