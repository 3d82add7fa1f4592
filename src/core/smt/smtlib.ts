/**
 * Prints terms as an SMT-LIB 2 script. Shared sub-terms become `define-fun`
 * macros so that the text stays linear in the size of the DAG.
 */
import { BOOL, type FuncDecl, type Term, sortName } from './term.ts';

export interface SmtScript {
  /** Declarations, shared definitions and one `assert` per input term. */
  text: string;
  /** Free constants by name, with their sorts. */
  constants: Map<string, number>;
  /** Uninterpreted functions by name. */
  functions: Map<string, FuncDecl>;
  /** Number of distinct DAG nodes printed. */
  nodes: number;
}

function quote(name: string): string {
  if (/[|\\]/.test(name)) throw new Error(`symbol name ${JSON.stringify(name)} cannot be quoted`);
  return `|${name}|`;
}

function bvLiteral(v: bigint, w: number): string {
  if (w % 4 === 0) return `#x${v.toString(16).padStart(w / 4, '0')}`;
  return `#b${v.toString(2).padStart(w, '0')}`;
}

const smtName: Record<string, string> = {
  not: 'not', and: 'and', or: 'or', implies: '=>', ite: 'ite', eq: '=', distinct: 'distinct',
  ult: 'bvult', ule: 'bvule', ugt: 'bvugt', uge: 'bvuge',
  slt: 'bvslt', sle: 'bvsle', sgt: 'bvsgt', sge: 'bvsge',
  add: 'bvadd', sub: 'bvsub', mul: 'bvmul', neg: 'bvneg', udiv: 'bvudiv', urem: 'bvurem',
  sdiv: 'bvsdiv', srem: 'bvsrem', smod: 'bvsmod', bvand: 'bvand', bvor: 'bvor', bvxor: 'bvxor',
  bvnot: 'bvnot', shl: 'bvshl', lshr: 'bvlshr', ashr: 'bvashr', concat: 'concat',
};

/** Builds the script asserting every term in `assertions`. */
export function toSmtLib(assertions: readonly Term[]): SmtScript {
  const constants = new Map<string, number>();
  const functions = new Map<string, FuncDecl>();
  const parents = new Map<number, number>();
  const order: Term[] = [];

  // Post-order over the DAG, iteratively (DAGs can be deep).
  const visited = new Set<number>();
  const bump = (t: Term) => parents.set(t.id, (parents.get(t.id) ?? 0) + 1);
  for (const root of assertions) {
    bump(root);
    const stack: Array<[Term, number]> = [[root, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [t, i] = top;
      if (i === 0 && visited.has(t.id)) {
        stack.pop();
        continue;
      }
      if (i < t.args.length) {
        top[1] = i + 1;
        const child = t.args[i];
        bump(child);
        if (!visited.has(child.id)) stack.push([child, 0]);
        continue;
      }
      stack.pop();
      if (visited.has(t.id)) continue;
      visited.add(t.id);
      order.push(t);
      if (t.op === 'var' && !isBoundVar(t)) constants.set(t.name!, t.sort);
      if (t.op === 'app') functions.set(t.decl!.name, t.decl!);
    }
  }

  const shared = new Set<number>();
  for (const t of order) {
    if (t.args.length > 0 && !t.hasBound && (parents.get(t.id) ?? 0) > 1) shared.add(t.id);
  }

  const text: string[] = [];
  for (const [name, sort] of constants) text.push(`(declare-const ${quote(name)} ${sortName(sort)})`);
  for (const [name, d] of functions) {
    text.push(`(declare-fun ${quote(name)} (${d.domain.map(sortName).join(' ')}) ${sortName(d.range)})`);
  }

  const printed = new Map<number, string>();
  const render = (t: Term): string => {
    const done = printed.get(t.id);
    if (done !== undefined) return done;
    let s: string;
    switch (t.op) {
      case 'const':
        s = typeof t.value === 'boolean' ? String(t.value) : bvLiteral(t.value as bigint, t.sort);
        break;
      case 'var':
        s = quote(t.name!);
        break;
      case 'app':
        s = `(${quote(t.decl!.name)} ${t.args.map(render).join(' ')})`;
        break;
      case 'extract':
        s = `((_ extract ${t.params![0]} ${t.params![1]}) ${render(t.args[0])})`;
        break;
      case 'zext':
        s = `((_ zero_extend ${t.params![0]}) ${render(t.args[0])})`;
        break;
      case 'sext':
        s = `((_ sign_extend ${t.params![0]}) ${render(t.args[0])})`;
        break;
      case 'forall':
      case 'exists': {
        const n = t.params![0];
        const vars = t.args.slice(0, n).map((v) => `(${quote(v.name!)} ${sortName(v.sort)})`).join(' ');
        s = `(${t.op} (${vars}) ${render(t.args[n])})`;
        break;
      }
      default:
        s = `(${smtName[t.op]} ${t.args.map(render).join(' ')})`;
    }
    if (shared.has(t.id)) {
      const name = `|t${t.id}|`;
      text.push(`(define-fun ${name} () ${sortName(t.sort)} ${s})`);
      s = name;
    }
    // Terms under a binder are not cached: the same node prints the same
    // text anyway, and skipping the cache keeps bound names out of macros.
    if (!t.hasBound || shared.has(t.id)) printed.set(t.id, s);
    return s;
  };

  for (const t of order) if (!t.hasBound) render(t);
  for (const a of assertions) {
    if (a.sort !== BOOL) throw new Error('assertions must be Bool terms');
    text.push(`(assert ${render(a)})`);
  }
  return { text: text.join('\n'), constants, functions, nodes: order.length };
}

function isBoundVar(t: Term): boolean {
  return t.op === 'var' && t.hasBound;
}
