/**
 * Visiting the kernel C syntax tree: every statement and every expression of
 * a function body, each with its parent chain, so that mutation operators and
 * the code extractor can ask "where does this node sit?" without a pass of
 * their own per node kind.
 */
import type { Block, Declaration, Expr, Stmt } from '../c/index.ts';

export type Node = Expr | Stmt;

/** The children of an expression, in source order. */
function exprChildren(e: Expr): Expr[] {
  switch (e.kind) {
    case 'int':
    case 'char':
    case 'string':
    case 'ident':
    case 'sizeof-type':
      return [];
    case 'paren':
      return [e.inner];
    case 'unary':
    case 'addr':
    case 'deref':
    case 'incdec':
    case 'cast':
    case 'sizeof-expr':
      return [e.operand];
    case 'binary':
    case 'logical':
      return [e.left, e.right];
    case 'assign':
      return [e.target, e.value];
    case 'cond':
      return [e.test, e.then, e.else];
    case 'member':
      return [e.object];
    case 'index':
      return [e.object, e.index];
    case 'call':
      return [e.callee, ...e.args];
    default: {
      const never: never = e;
      return never;
    }
  }
}

function declExprs(d: Declaration): Expr[] {
  return d.declarators.flatMap((x) => (x.init ? [x.init] : []));
}

/** The direct sub-statements and expressions of a statement, in source order. */
function stmtChildren(s: Stmt): Node[] {
  switch (s.kind) {
    case 'block':
      return [...s.items];
    case 'expr':
      return [s.expr];
    case 'declaration':
      return declExprs(s);
    case 'if':
      return s.else ? [s.test, s.then, s.else] : [s.test, s.then];
    case 'for': {
      const out: Node[] = [];
      if (s.init) out.push(s.init);
      if (s.test) out.push(s.test);
      if (s.step) out.push(s.step);
      out.push(s.body);
      return out;
    }
    case 'return':
      return s.value ? [s.value] : [];
    case 'break':
    case 'continue':
    case 'empty':
      return [];
    default: {
      const never: never = s;
      return never;
    }
  }
}

const STMT_KINDS = new Set(['block', 'expr', 'declaration', 'if', 'for', 'return', 'break', 'continue', 'empty']);

export function isStmt(n: Node): n is Stmt {
  return STMT_KINDS.has(n.kind);
}

/**
 * Calls `visit(node, parents)` for every statement and expression under
 * `body` in source order (pre-order); `parents` runs from `body` down to the
 * node's parent.
 */
export function walk(body: Block, visit: (node: Node, parents: readonly Node[]) => void): void {
  const parents: Node[] = [];
  const go = (n: Node): void => {
    visit(n, parents);
    parents.push(n);
    for (const c of isStmt(n) ? stmtChildren(n) : exprChildren(n)) go(c);
    parents.pop();
  };
  go(body);
}

/** Strips redundant parentheses. */
export function unparen(e: Expr): Expr {
  return e.kind === 'paren' ? unparen(e.inner) : e;
}
