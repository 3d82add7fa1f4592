/**
 * Operations on the runtime values of the spec dialect (objects.ts): type
 * names and descriptions for messages, Python truthiness, str() and repr().
 */
import { BOOL, type Sort, Term, isFalse, isTrue, show } from '../smt/term.ts';
import type { Span } from '../span.ts';
import { symbolicBool, valueError } from './errors.ts';
import { Budget, MAX_SEQ } from './limits.ts';
import type { PyList, PyTuple, PyValue } from './objects.ts';
import { warn } from './warnings.ts';

export function isTerm(v: PyValue): v is Term {
  return v instanceof Term;
}

export function isPyInt(v: PyValue): v is bigint | boolean {
  return typeof v === 'bigint' || typeof v === 'boolean';
}

/** The Python int of an int or bool. */
export function intOf(v: bigint | boolean): bigint {
  return typeof v === 'boolean' ? (v ? 1n : 0n) : v;
}

export function sortLabel(s: Sort): string {
  return s === BOOL ? 'Bool' : `BitVec(${s})`;
}

/** Python-style type name, for "unsupported operand type(s)" messages. */
export function typeName(v: PyValue): string {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'str';
  }
  if (v instanceof Term) return sortLabel(v.sort);
  switch (v.kind) {
    case 'tuple':
      return 'tuple';
    case 'list':
      return 'list';
    case 'function':
      return 'function';
    case 'builtin':
      return 'builtin function';
    case 'module':
      return 'module';
    case 'sort':
      return 'sort';
    case 'enum':
      return 'enum class';
    case 'class':
      return 'class';
    case 'mapfn':
      return 'function';
    case 'kstate':
      return 'KernelState';
    case 'struct':
      return v.schema.className;
    case 'accessor':
      return 'Accessor';
    case 'refcnt':
      return 'Refcnt accessor';
  }
}

/** A short description with an article, for messages: "a 64-bit bit-vector", "int 3". */
export function describe(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'bigint') return `int ${v}`;
  if (typeof v === 'boolean') return `bool ${v ? 'True' : 'False'}`;
  if (typeof v === 'string') return 'a str';
  if (v instanceof Term) return v.sort === BOOL ? 'a Bool term' : `a ${v.sort}-bit bit-vector`;
  switch (v.kind) {
    case 'tuple':
      return `a tuple of ${v.items.length}`;
    case 'list':
      return `a list of ${v.items.length}`;
    case 'kstate':
      return 'a KernelState';
    case 'struct':
      return `a ${v.schema.className} struct`;
    case 'accessor':
      return 'an Accessor';
    case 'refcnt':
      return 'a Refcnt accessor';
    case 'module':
      return `module '${v.name}'`;
    default:
      return `a ${typeName(v)}`;
  }
}

/**
 * Results of a spec's `a == b` that our constant folding turned into
 * something other than an equality (`If(c, 1, 2) == 1` becomes `c`-like
 * terms): z3py still holds an equality AST there, so truthiness must treat
 * them as one.
 */
const foldedEqualities = new WeakSet<Term>();

/** Records that `t` is the (folded) result of a Python `==` on z3 terms. */
export function noteEquality(t: Term): Term {
  if (t.op !== 'eq' && t.op !== 'const') foldedEqualities.add(t);
  return t;
}

/**
 * Python truthiness. A z3 Bool that is literally true or false converts (as
 * in z3py); an equality converts by structural identity with warning
 * SPEC203 (as z3py); any other z3 term raises SPEC012, naming the construct
 * `where`.
 */
export function truthy(v: PyValue, span: Span, where: string): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case 'bigint':
      return v !== 0n;
    case 'boolean':
      return v;
    case 'string':
      return v.length > 0;
  }
  if (v instanceof Term) {
    if (isTrue(v)) return true;
    if (isFalse(v)) return false;
    // z3py's __bool__ (__nonzero__ in Python 2) on an equality a == b is
    // a.eq(b): True only for the same AST. Ours folds identical operands to
    // True already, so an equality left symbolic is two different terms.
    if ((v.op === 'eq' && v.args.length === 2) || foldedEqualities.has(v)) {
      warn('SPEC203', span, `a z3 equality used as a Python bool in ${where} is False here (z3py compares the two expressions structurally, not their values)`, [
        'use util.If, z3.And, z3.Or or z3.Not to branch on the value of a z3 condition',
      ]);
      return false;
    }
    throw symbolicBool(span, where);
  }
  if (v.kind === 'tuple' || v.kind === 'list') return v.items.length > 0;
  return true;
}

/**
 * Python's str() for the values a spec can print or format into messages,
 * at most MAX_SEQ characters (a longer one is SPEC023 at `span`). A term
 * prints as z3py's printer does, cut short with '…' where it is too large.
 */
export function pyStr(v: PyValue, span: Span): string {
  return render(v, false, span);
}

/** Python's repr(): strings quoted, the rest as str(). */
export function pyRepr(v: PyValue, span: Span): string {
  return render(v, true, span);
}

function render(v: PyValue, quoted: boolean, span: Span): string {
  const room = new Budget(MAX_SEQ, () => valueError(span, `this would build a string of more than ${MAX_SEQ} characters`));
  const out: string[] = [];
  const put = (s: string) => {
    room.spend(s.length);
    out.push(s);
  };
  const write = (x: PyValue, q: boolean): void => {
    if (typeof x === 'string') return put(q ? `'${x.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : x);
    if (x instanceof Term) {
      // The printer may pass its length by a piece; what does not fit is cut, as it elides.
      const text = show(x, 6, room.remaining - 1);
      return put(text.length <= room.remaining ? text : `${text.slice(0, Math.max(0, room.remaining - 1))}…`);
    }
    if (x === null || typeof x !== 'object' || (x.kind !== 'tuple' && x.kind !== 'list')) return put(scalarStr(x));
    put(x.kind === 'tuple' ? '(' : '[');
    x.items.forEach((item, i) => {
      if (i) put(', ');
      write(item, true);
    });
    put(x.kind === 'list' ? ']' : x.items.length === 1 ? ',)' : ')');
  };
  write(v, quoted);
  return out.join('');
}

function scalarStr(v: Exclude<PyValue, string | Term | PyTuple | PyList>): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return v.toString();
  return `<${typeName(v)}>`;
}
