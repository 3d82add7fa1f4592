/**
 * A pretty-printer for the C syntax tree: expressions (with the fewest
 * parentheses that keep the meaning, plus the ones written in the source),
 * type names and statements. Used in messages ("index pid out of bounds of
 * proc_table[64]") and by tools that show or rewrite code.
 */
import type { Declaration, DeclSpecs, Declarator, Expr, Stmt, TypeName } from './ast.ts';

const BIN_PREC: Record<string, number> = {
  '||': 3, '&&': 4, '|': 5, '^': 6, '&': 7, '==': 8, '!=': 8,
  '<': 9, '>': 9, '<=': 9, '>=': 9, '<<': 10, '>>': 10, '+': 11, '-': 11, '*': 12, '/': 12, '%': 12,
};

function prec(e: Expr): number {
  switch (e.kind) {
    case 'assign': return 1;
    case 'cond': return 2;
    case 'logical':
    case 'binary': return BIN_PREC[e.op];
    case 'unary':
    case 'addr':
    case 'deref':
    case 'cast':
    case 'sizeof-expr':
    case 'sizeof-type': return 13;
    case 'incdec': return e.prefix ? 13 : 14;
    case 'member':
    case 'index':
    case 'call': return 14;
    default: return 15;
  }
}

/** C source text for an expression. */
export function printExpr(e: Expr, min = 0): string {
  const s = printBare(e);
  return prec(e) < min ? `(${s})` : s;
}

function printBare(e: Expr): string {
  switch (e.kind) {
    case 'int':
    case 'char':
      return e.text;
    case 'string':
      return JSON.stringify(e.value);
    case 'ident':
      return e.name;
    case 'paren':
      return `(${printExpr(e.inner)})`;
    case 'unary':
      return `${e.op}${printExpr(e.operand, 13)}`;
    case 'addr':
      return `&${printExpr(e.operand, 13)}`;
    case 'deref':
      return `*${printExpr(e.operand, 13)}`;
    case 'incdec':
      return e.prefix ? `${e.op}${printExpr(e.operand, 13)}` : `${printExpr(e.operand, 14)}${e.op}`;
    case 'binary':
    case 'logical': {
      const p = BIN_PREC[e.op];
      return `${printExpr(e.left, p)} ${e.op} ${printExpr(e.right, p + 1)}`;
    }
    case 'assign':
      return `${printExpr(e.target, 13)} ${e.op} ${printExpr(e.value, 1)}`;
    case 'cond':
      return `${printExpr(e.test, 3)} ? ${printExpr(e.then)} : ${printExpr(e.else, 2)}`;
    case 'cast':
      return `(${printTypeName(e.type)})${printExpr(e.operand, 13)}`;
    case 'sizeof-type':
      return `sizeof(${printTypeName(e.type)})`;
    case 'sizeof-expr':
      return `sizeof ${printExpr(e.operand, 13)}`;
    case 'member':
      return `${printExpr(e.object, 14)}${e.arrow ? '->' : '.'}${e.name}`;
    case 'index':
      return `${printExpr(e.object, 14)}[${printExpr(e.index)}]`;
    case 'call':
      return `${e.callee.name}(${e.args.map((a) => printExpr(a, 2)).join(', ')})`;
  }
}

function printSpecs(s: DeclSpecs): string {
  const parts: string[] = [];
  if (s.storage) parts.push(s.storage);
  if (s.inline) parts.push('inline');
  if (s.constQ) parts.push('const');
  if (s.volatileQ) parts.push('volatile');
  const t = s.type;
  switch (t.kind) {
    case 'builtin':
      parts.push(t.words.join(' '));
      break;
    case 'typedef-name':
      parts.push(t.name);
      break;
    case 'struct':
      parts.push(`${t.union ? 'union' : 'struct'}${t.tag ? ` ${t.tag}` : ''}${t.members ? ' { ... }' : ''}`);
      break;
    case 'enum':
      parts.push(`enum${t.tag ? ` ${t.tag}` : ''}${t.enumerators ? ' { ... }' : ''}`);
      break;
  }
  return parts.join(' ');
}

/** The declarator's text: the name (or nothing) with its `*`, `[n]` and `(params)`. */
function printDeclarator(d: Declarator): string {
  const wrap = (x: Declarator) => (x.kind === 'pointer' ? `(${printDeclarator(x)})` : printDeclarator(x));
  switch (d.kind) {
    case 'name':
      return d.name ?? '';
    case 'pointer':
      return `*${printDeclarator(d.inner)}`;
    case 'array':
      return `${wrap(d.inner)}[${d.size ? printExpr(d.size) : ''}]`;
    case 'function': {
      const ps = d.params.map((p) => {
        const x = printDeclarator(p.declarator);
        return x ? `${printSpecs(p.specs)} ${x}` : printSpecs(p.specs);
      });
      if (d.variadic) ps.push('...');
      return `${wrap(d.inner)}(${ps.length ? ps.join(', ') : 'void'})`;
    }
  }
}

function printTypeName(t: TypeName): string {
  const d = printDeclarator(t.declarator);
  return d ? `${printSpecs(t.specs)} ${d}` : printSpecs(t.specs);
}

function printDeclaration(d: Declaration): string {
  const ds = d.declarators.map((x) => printDeclarator(x.declarator) + (x.init ? ` = ${printExpr(x.init, 1)}` : ''));
  return `${printSpecs(d.specs)}${ds.length ? ' ' + ds.join(', ') : ''};`;
}

/** C source text for a statement, indented by `indent` levels of four spaces. */
export function printStmt(s: Stmt, indent = 0): string {
  const pad = '    '.repeat(indent);
  switch (s.kind) {
    case 'block':
      return `${pad}{\n${s.items.map((x) => printStmt(x, indent + 1)).join('\n')}${s.items.length ? '\n' : ''}${pad}}`;
    case 'expr':
      return `${pad}${printExpr(s.expr)};`;
    case 'declaration':
      return pad + printDeclaration(s);
    case 'if': {
      let out = `${pad}if (${printExpr(s.test)})\n${printStmt(s.then, s.then.kind === 'block' ? indent : indent + 1)}`;
      if (s.else) out += `\n${pad}else\n${printStmt(s.else, s.else.kind === 'block' ? indent : indent + 1)}`;
      return out;
    }
    case 'for': {
      const init = s.init ? (s.init.kind === 'expr' ? `${printExpr(s.init.expr)};` : printDeclaration(s.init)) : ';';
      const head = `for (${init} ${s.test ? printExpr(s.test) : ''}; ${s.step ? printExpr(s.step) : ''})`;
      return `${pad}${head}\n${printStmt(s.body, s.body.kind === 'block' ? indent : indent + 1)}`;
    }
    case 'return':
      return `${pad}return${s.value ? ` ${printExpr(s.value)}` : ''};`;
    case 'break':
      return `${pad}break;`;
    case 'continue':
      return `${pad}continue;`;
    case 'empty':
      return `${pad};`;
  }
}
