/**
 * Static checks Python itself makes before running anything (the errors
 * CPython reports as SyntaxError at compile time), plus the scope analysis
 * the interpreter needs: which names each function, lambda and generator
 * expression binds locally (a list comprehension binds its names in the
 * scope around it, as in Python 2), which functions are generators, and
 * which have `from m import *` (their names are looked up as they run).
 * Annotates the tree in place (`locals`, `generator`, `starImport`).
 */
import type * as A from './ast.ts';
import { structureError, unsupportedYield } from './errors.ts';
import { lintFutureStatements } from './future.ts';

/** Checks the module and fills in `locals`. Throws SpecError on the first problem. */
export function lintModule(mod: A.Module): void {
  lintFutureStatements(mod);
  for (const s of mod.body) stmt(s, undefined, undefined);
}

/**
 * `scope` is the local names of the enclosing function (undefined at module
 * level), which list comprehensions add their names to; `fn` is that
 * function.
 */
function stmt(s: A.Stmt, scope: Set<string> | undefined, fn: A.FunctionDef | undefined): void {
  const expr = (e: A.Expr) => exprIn(e, scope);
  switch (s.kind) {
    case 'FunctionDef': {
      params(s.params);
      for (const p of s.params) if (p.default) expr(p.default);
      const locals = bodyLocals(s.params, s.body);
      s.locals = locals;
      s.generator = s.body.some(hasYield);
      s.starImport = s.body.some(hasStarImport);
      if (s.starImport) {
        // Python 2 runs such a function with its names in a dict, which closures cannot see: a name the
        // function (when nested) or a function inside it reads from outside is a compile-time error.
        if (scope && reads(s.body, locals)) throw structureError(s.span, `import * is not allowed in function '${s.name}' because it is a nested function`);
        if (nestedReads(s.body)) throw structureError(s.span, `import * is not allowed in function '${s.name}' because it contains a nested function with free variables`);
      }
      for (const b of s.body) stmt(b, locals, s);
      return;
    }
    case 'Return':
      if (!scope) throw structureError(s.span, "'return' outside function");
      if (s.value && fn?.generator) throw structureError(s.span, "'return' with argument inside generator");
      if (s.value) expr(s.value);
      return;
    case 'Assign':
      for (const t of s.targets) expr(t);
      if (s.value.kind === 'Yield') yieldIn(s.value, scope);
      else expr(s.value);
      return;
    case 'AugAssign':
      expr(s.target);
      expr(s.value);
      return;
    case 'ExprStmt':
      if (s.expr.kind === 'Yield') yieldIn(s.expr, scope);
      else expr(s.expr);
      return;
    case 'If':
      expr(s.test);
      for (const b of s.body) stmt(b, scope, fn);
      for (const b of s.orelse) stmt(b, scope, fn);
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
      return;
    case 'Pass':
    case 'Import':
      return;
  }
  const never: never = s;
  return never;
}

/** A `yield` where the dialect runs it: as a statement or an assignment's value, in a function. */
function yieldIn(y: A.Yield, scope: Set<string> | undefined): void {
  if (!scope) throw structureError(y.span, "'yield' outside function");
  if (y.value) exprIn(y.value, scope);
}

function params(ps: readonly A.Param[]): void {
  const seen = new Set<string>();
  let sawDefault = false;
  let sawStar = false;
  for (const p of ps) {
    for (const name of p.unpack ? names(p.unpack) : [p.name]) {
      if (seen.has(name)) throw structureError(p.span, `duplicate argument '${name}' in function definition`);
      seen.add(name);
    }
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
      const locals = new Set(e.params.flatMap((p) => [p.name, ...(p.unpack ? names(p.unpack) : [])]));
      e.locals = locals;
      if (e.body.kind === 'Yield') throw unsupportedYield(e.body.span, 'in a lambda');
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
    case 'Yield':
      if (!scope) throw structureError(e.span, "'yield' outside function");
      throw unsupportedYield(e.span, 'inside an expression');
  }
  const never: never = e;
  return never;
}

/** The names a target pattern binds (`(a, (b, c))`). */
function names(t: A.Expr): string[] {
  const out = new Set<string>();
  targetNames(t, out);
  return [...out];
}

/** Whether a statement of a function body makes it a generator (nested functions do not count). */
function hasYield(s: A.Stmt): boolean {
  switch (s.kind) {
    case 'ExprStmt':
      return exprHasYield(s.expr);
    case 'Assign':
    case 'AugAssign':
    case 'Return':
      return s.value !== undefined && exprHasYield(s.value);
    case 'If':
      return exprHasYield(s.test) || s.body.some(hasYield) || s.orelse.some(hasYield);
    case 'Assert':
      return exprHasYield(s.test) || (s.msg !== undefined && exprHasYield(s.msg));
    case 'Print':
      return s.values.some(exprHasYield);
    default:
      return false;
  }
}

/** A yield anywhere in an expression, but not inside a lambda (its own function). */
function exprHasYield(e: A.Expr): boolean {
  const stack: A.Expr[] = [e];
  while (stack.length) {
    const x = stack.pop()!;
    if (x.kind === 'Yield') return true;
    if (x.kind === 'Lambda') continue;
    for (const v of Object.values(x)) {
      if (Array.isArray(v)) for (const i of v) pushExprs(i, stack);
      else pushExprs(v, stack);
    }
  }
  return false;
}

function pushExprs(v: unknown, stack: A.Expr[]): void {
  if (typeof v !== 'object' || v === null) return;
  if ('kind' in v && typeof (v as { kind: unknown }).kind === 'string') stack.push(v as A.Expr);
  else for (const w of Object.values(v)) if (typeof w === 'object' && w !== null && 'kind' in w) stack.push(w as A.Expr);
}

function hasStarImport(s: A.Stmt): boolean {
  if (s.kind === 'ImportFrom') return s.names === '*';
  if (s.kind === 'If') return s.body.some(hasStarImport) || s.orelse.some(hasStarImport);
  return false;
}

/**
 * Whether `node` reads a name that neither `bound` nor a scope inside
 * `node` binds (a function nested in it adds its own names).
 */
function reads(node: unknown, bound: ReadonlySet<string>): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some((x) => reads(x, bound));
  const n = node as { kind?: string };
  if (n.kind === 'Name') return !bound.has((node as A.Name).id);
  if (n.kind === 'FunctionDef' || n.kind === 'Lambda') {
    const f = node as A.FunctionDef | A.Lambda;
    const own = new Set([...bound, ...(f.kind === 'Lambda' ? f.params.flatMap((p) => [p.name, ...(p.unpack ? names(p.unpack) : [])]) : bodyLocals(f.params, f.body))]);
    return reads(f.body, own) || f.params.some((p) => p.default !== undefined && reads(p.default, bound));
  }
  return Object.entries(node).some(([k, v]) => k !== 'span' && k !== 'locals' && reads(v, bound));
}

/** Whether a function nested anywhere in `node` (a def or a lambda) reads a name it does not bind: a free variable. */
function nestedReads(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some(nestedReads);
  const n = node as { kind?: string };
  if (n.kind === 'FunctionDef' || n.kind === 'Lambda') return reads(node, new Set());
  return Object.entries(node).some(([k, v]) => k !== 'span' && k !== 'locals' && nestedReads(v));
}

function targetNames(t: A.Expr, into: Set<string>): void {
  if (t.kind === 'Name') into.add(t.id);
  else if (t.kind === 'Tuple' || t.kind === 'List') for (const x of t.elts) targetNames(x, into);
}

/** Names a function body binds: parameters (and the names of tuple parameters), assignment targets, nested defs and imports. */
function bodyLocals(ps: readonly A.Param[], body: readonly A.Stmt[]): Set<string> {
  const out = new Set(ps.flatMap((p) => [p.name, ...(p.unpack ? names(p.unpack) : [])]));
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
