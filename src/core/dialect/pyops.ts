/**
 * Python operators on dialect values. Python ints follow Python (bigints,
 * floor division and modulo, errors on division by zero) with a size cap;
 * z3 terms follow z3py (docs/hv6-model.md §4.10): `/` is bvsdiv, `%` is bvsmod, `>>`
 * is arithmetic, `<`..`>=` are signed, a Python int takes the width of the
 * other operand, and mixing widths is a sort error.
 */
import * as o from '../smt/ops.ts';
import { BOOL, type Term, bvConst } from '../smt/term.ts';
import type { Span } from '../span.ts';
import type { BinaryOp, CmpOp } from './ast.ts';
import { accessorInfo, mustBeValue, sortPhrase } from './coerce.ts';
import { warn } from './warnings.ts';
import {
  divisionByZero,
  floatResult,
  intTooLarge,
  sortMismatch,
  typeError,
  valueError,
} from './errors.ts';
import { percentFormat } from './format.ts';
import { itemsOf } from './iteration.ts';
import { MAX_INT_BITS } from './lexer.ts';
import { WalkBudget, MAX_SEQ, MAX_VISITS } from './limits.ts';
import { asciiDecode, expr, intOf, isPyInt, isTerm, isText, noteEquality, pyInteger, termOf, truthy, typeName } from './values.ts';
import { PyList, PyLong, PyTuple, PyUnicode, type PyValue } from './objects.ts';

/** Longest string, tuple or list a spec may build (doubling a list in a recursion must not exhaust memory). */

/** Python's int.bit_length(): the bits of |v| without leading zeros. */
function bitLength(v: bigint): number {
  if (v < 0n) v = -v;
  if (v === 0n) return 0;
  const hex = v.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0], 16)));
}

function capInt(v: bigint, span: Span): bigint {
  if (bitLength(v) > MAX_INT_BITS) throw intTooLarge(span, MAX_INT_BITS);
  return v;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function floorMod(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r;
}

/**
 * Python 2 on two ints, longs or bools: bools count as 0/1 (& | ^ of two
 * bools stay bool); the result is a long when an operand is one or when it
 * leaves the 64-bit int range, as Python 2 promotes it.
 */
function intBinop(op: BinaryOp, x: bigint | boolean | PyLong, y: bigint | boolean | PyLong, span: Span): PyValue {
  if (typeof x === 'boolean' && typeof y === 'boolean' && (op === '&' || op === '|' || op === '^')) {
    return op === '&' ? x && y : op === '|' ? x || y : x !== y;
  }
  const a = intOf(x);
  const b = intOf(y);
  const long = x instanceof PyLong || y instanceof PyLong;
  const int = (v: bigint) => pyInteger(v, long);
  switch (op) {
    case '+':
      return int(capInt(a + b, span));
    case '-':
      return int(capInt(a - b, span));
    case '*':
      if (bitLength(a) + bitLength(b) > MAX_INT_BITS + 1) throw intTooLarge(span, MAX_INT_BITS);
      return int(capInt(a * b, span));
    case '/': // Python 2 (hv6's interpreter): int / int is floor division
    case '//':
      if (b === 0n) throw divisionByZero(span);
      return int(floorDiv(a, b));
    case '%':
      if (b === 0n) throw divisionByZero(span);
      return int(floorMod(a, b));
    case '&':
      return int(a & b);
    case '|':
      return int(a | b);
    case '^':
      return int(a ^ b);
    case '<<':
      if (b < 0n) throw valueError(span, 'negative shift count');
      if (a === 0n) return int(0n);
      if (b > BigInt(MAX_INT_BITS)) throw intTooLarge(span, MAX_INT_BITS);
      return int(capInt(a << b, span));
    case '>>':
      if (b < 0n) throw valueError(span, 'negative shift count');
      if (b > BigInt(MAX_INT_BITS)) return int(a < 0n ? -1n : 0n);
      return int(a >> b);
    case '**': {
      if (b < 0n) throw valueError(span, 'negative exponents give floats, which specs do not support');
      if (a === 0n || a === 1n) return int(b === 0n ? 1n : a);
      if (a === -1n) return int(b % 2n === 0n ? 1n : -1n);
      // |a| >= 2^(n-1) for n = bitLength(a), so a ** b has at least (n-1)*b + 1 bits: refuse only what
      // surely exceeds the cap before computing (at most twice the cap's bits), then cap exactly.
      if (BigInt(bitLength(a) - 1) * b + 1n > BigInt(MAX_INT_BITS)) throw intTooLarge(span, MAX_INT_BITS);
      return int(capInt(a ** b, span));
    }
  }
}

const BV_OPS: ReadonlyMap<string, (a: Term, b: Term) => Term> = new Map(Object.entries({
  '+': o.add,
  '-': o.sub,
  '*': o.mul,
  '/': o.sdiv,
  '%': o.smod,
  '&': o.bvand,
  '|': o.bvor,
  '^': o.bvxor,
  '<<': o.shl,
  '>>': o.ashr,
} satisfies Partial<Record<BinaryOp, (a: Term, b: Term) => Term>>));

/** The operands of a z3 operation as terms of one sort, or an error naming both sorts. */
function termPair(a: PyValue, b: PyValue, op: string, span: Span): [Term, Term] | undefined {
  const ta = termOf(a);
  const tb = termOf(b);
  if (ta && tb) {
    if (ta.sort !== tb.sort) {
      throw sortMismatch(
        span,
        `sort mismatch in '${op}': ${sortPhrase(ta.sort)} and ${sortPhrase(tb.sort)}`,
        ta.sort !== BOOL && tb.sort !== BOOL ? 'use ZeroExt, SignExt or Extract to make the widths agree' : undefined,
      );
    }
    return [ta, tb];
  }
  const t = ta ?? tb;
  const other = ta ? b : a;
  if (!t) return undefined;
  let c: Term | undefined;
  if (t.sort === BOOL) {
    if (typeof other === 'boolean') c = other ? o.TRUE : o.FALSE;
    else if (isPyInt(other)) {
      throw sortMismatch(span, `sort mismatch in '${op}': Bool and int ${other}`, 'use z3.BoolVal(True) or z3.BoolVal(False)');
    }
  } else if (isPyInt(other)) {
    c = bvConst(intOf(other), t.sort);
  }
  if (!c) return undefined;
  return ta ? [ta, c] : [c, tb!];
}

/**
 * `a / b` under `from __future__ import division`: true division, which
 * z3py's `__truediv__` makes bvsdiv on bit-vectors (the same as `/`) and
 * Python makes a float on two ints (refused: the dialect has no floats).
 */
export function trueDivide(a: PyValue, b: PyValue, span: Span): PyValue {
  if (isPyInt(a) && isPyInt(b)) {
    if (intOf(b) === 0n) throw divisionByZero(span);
    throw floatResult(span, "true division of ints ('/' under from __future__ import division)");
  }
  return binop('/', a, b, span);
}

/** `a op b` for every value kind a spec can combine. */
export function binop(op: BinaryOp, a: PyValue, b: PyValue, span: Span): PyValue {
  if (isPyInt(a) && isPyInt(b)) return intBinop(op, a, b, span);
  mustBeValue(a, span);
  mustBeValue(b, span);
  if (isTerm(a) || isTerm(b)) {
    const pair = termPair(a, b, op, span);
    if (pair) {
      const [x, y] = pair;
      const f = BV_OPS.get(op);
      if (x.sort === BOOL || !f) {
        const hint = x.sort === BOOL ? 'use z3.And, z3.Or, z3.Not or z3.Xor on Bool terms' : op === '//' ? 'use UDiv for unsigned or / for signed division' : undefined;
        throw typeError(span, `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`, hint);
      }
      return expr(f(x, y));
    }
  }
  // Python sequences
  if (op === '+') {
    if (isText(a) && isText(b)) {
      if (typeof a === 'string' && typeof b === 'string') {
        if (a.length + b.length > MAX_SEQ) throw valueError(span, 'string too long');
        return a + b;
      }
      // A str meeting a unicode is decoded as ASCII (Python 2's coercion).
      const x = typeof a === 'string' ? asciiDecode(a, span) : a;
      const y = typeof b === 'string' ? asciiDecode(b, span) : b;
      if (x.text.length + y.text.length > MAX_SEQ) throw valueError(span, 'string too long');
      return new PyUnicode(x.text + y.text);
    }
    const both = (isSeq(a, 'tuple') && isSeq(b, 'tuple')) || (isSeq(a, 'list') && isSeq(b, 'list'));
    if (both) {
      const [x, y] = [a as PyTuple, b as PyTuple];
      if (x.items.length + y.items.length > MAX_SEQ) throw valueError(span, 'sequence too long');
      return x.kind === 'tuple' ? new PyTuple([...x.items, ...y.items]) : new PyList([...x.items, ...y.items]);
    }
  }
  if (op === '*') {
    const [s, n] = isPyInt(b) ? [a, intOf(b)] : isPyInt(a) ? [b, intOf(a)] : [undefined, 0n];
    if (s !== undefined && (isText(s) || isSeq(s, 'tuple') || isSeq(s, 'list'))) {
      const len = typeof s === 'string' ? s.length : s instanceof PyUnicode ? s.text.length : (s as PyTuple).items.length;
      // An empty sequence stays empty however often it repeats; any other is bounded before repeating.
      if (len > 0 && BigInt(len) * n > BigInt(MAX_SEQ)) throw valueError(span, 'sequence too long');
      const count = n < 0n || len === 0 ? 0 : Number(n);
      if (typeof s === 'string') return s.repeat(count);
      if (s instanceof PyUnicode) return new PyUnicode(s.text.repeat(count));
      const items: PyValue[] = [];
      for (let i = 0; i < count; i++) for (const v of (s as PyTuple).items) items.push(v);
      return (s as PyTuple).kind === 'tuple' ? new PyTuple(items) : new PyList(items);
    }
  }
  if (op === '%' && isText(a)) return percentFormat(a, b, span);
  throw typeError(span, `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function isSeq(v: PyValue, kind: 'tuple' | 'list'): v is PyTuple | PyList {
  return typeof v === 'object' && v !== null && !isTerm(v) && v.kind === kind;
}

export function unary(op: '-' | '+' | '~' | 'not', v: PyValue, span: Span): PyValue {
  if (op === 'not') return !truthy(v, span, "'not'");
  if (isPyInt(v)) {
    const n = intOf(v);
    return pyInteger(op === '-' ? -n : op === '~' ? ~n : n, v instanceof PyLong);
  }
  mustBeValue(v, span);
  // z3py's __pos__ returns the expression itself.
  if (isTerm(v) && v.term.sort !== BOOL) return op === '-' ? expr(o.neg(v.term)) : op === '~' ? expr(o.bvnot(v.term)) : v;
  throw typeError(span, `bad operand type for unary ${op}: '${typeName(v)}'`, isTerm(v) ? 'use z3.Not on Bool terms' : undefined);
}

/**
 * Python equality of two concrete values (terms only when identical).
 * Nested lists and tuples are compared item by item, at most MAX_VISITS
 * items in all (two lists nested in themselves forty times over are 2^40).
 */
function pyEquals(a: PyValue, b: PyValue, span: Span, visits = visitBudget(span, 'comparing these values')): boolean {
  visits.spend();
  if (isPyInt(a) && isPyInt(b)) return intOf(a) === intOf(b);
  if (a === b) return true;
  if (isText(a) && isText(b)) return textEquals(a, b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (isTerm(a) || isTerm(b)) {
    const r = compare('==', a, b, span);
    return truthy(r, span, "'=='");
  }
  if ((a.kind === 'tuple' && b.kind === 'tuple') || (a.kind === 'list' && b.kind === 'list')) {
    const x = (a as PyTuple).items;
    const y = (b as PyTuple).items;
    return x.length === y.length && x.every((v, i) => pyEquals(v, y[i], span, visits));
  }
  if (a.kind === 'sort' && b.kind === 'sort') return a.sort === b.sort;
  return false;
}

/** str and unicode equality: a str equals a unicode when it decodes as ASCII to the same text (Python 2 warns and says False otherwise). */
function textEquals(a: string | PyUnicode, b: string | PyUnicode): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  const ta = typeof a === 'string' ? a : a.text;
  const tb = typeof b === 'string' ? b : b.text;
  const bytes = typeof a === 'string' ? a : typeof b === 'string' ? b : '';
  return !/[^\x00-\x7f]/.test(bytes) && ta === tb;
}

/** Code point order of two texts (JavaScript compares UTF-16 units, which differs past U+FFFF). */
function textOrder(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Whether `a op b` holds for an order `d` (negative: a < b). */
function ordered(op: CmpOp, d: number): boolean {
  return op === '<' ? d < 0 : op === '<=' ? d <= 0 : op === '>' ? d > 0 : d >= 0;
}

/** The budget of a walk over nested lists and tuples that `what` (a phrase: "comparing these values") makes. */
export function visitBudget(span: Span, what: string): WalkBudget {
  return new WalkBudget(MAX_VISITS, () => valueError(span, `${what} visits more than ${MAX_VISITS} items of nested lists and tuples`));
}

/** One comparison `a op b` (chains are split by the interpreter). */
export function compare(op: CmpOp, a: PyValue, b: PyValue, span: Span): PyValue {
  switch (op) {
    // Identity: primitives compare by value (small ints and interned strings in CPython),
    // terms are hash-consed, objects compare by reference.
    case 'is':
      return a === b;
    case 'is not':
      return a !== b;
    case 'in':
    case 'not in': {
      let found: boolean;
      if (isText(b)) {
        if (!isText(a)) throw typeError(span, `'in <string>' requires a string as left operand, not ${typeName(a)}`);
        if (typeof a === 'string' && typeof b === 'string') found = b.includes(a);
        else found = (typeof b === 'string' ? asciiDecode(b, span) : b).text.includes((typeof a === 'string' ? asciiDecode(a, span) : a).text);
      } else if (typeof b === 'object' && b !== null && !isTerm(b) && b.kind === 'xrange') {
        const n = isPyInt(a) ? intOf(a) : undefined;
        found = n !== undefined && (b.step > 0n ? n >= b.start && n < b.start + b.length * b.step : n <= b.start && n > b.start + b.length * b.step) && (n - b.start) % b.step === 0n;
      } else if (isSeq(b, 'tuple') || isSeq(b, 'list') || (typeof b === 'object' && b !== null && !isTerm(b) && b.kind === 'iterator')) {
        found = false;
        const visits = visitBudget(span, "'in'");
        // An iterator is read up to the first match, as Python reads it.
        for (const x of itemsOf(b, span)) {
          const eqv = isTerm(a) || isTerm(x) ? compare('==', a, x, span) : pyEquals(a, x, span, visits);
          if (truthy(eqv, span, "'in'")) {
            found = true;
            break;
          }
        }
      } else {
        throw typeError(span, `argument of type '${typeName(b)}' is not iterable`, isTerm(a) ? 'use util.In(value, [choices]) for a z3 condition' : undefined);
      }
      return op === 'in' ? found : !found;
    }
  }
  const acc = accessorCompare(op, a, b, span);
  if (acc !== undefined) return acc;
  mustBeValue(a, span);
  mustBeValue(b, span);
  if (isTerm(a) || isTerm(b)) {
    if ((op === '==' || op === '!=') && (a === null || b === null)) return op === '!=';
    const pair = termPair(a, b, op, span);
    if (!pair) throw typeError(span, `unsupported comparison ${op} between '${typeName(a)}' and '${typeName(b)}'`);
    const [x, y] = pair;
    switch (op) {
      case '==':
        return expr(noteEquality(o.eq(x, y)));
      case '!=':
        return expr(o.not(o.eq(x, y)));
    }
    if (x.sort === BOOL) throw typeError(span, `unsupported comparison ${op} between Bool terms`);
    switch (op) {
      case '<':
        return expr(o.slt(x, y));
      case '<=':
        return expr(o.sle(x, y));
      case '>':
        return expr(o.sgt(x, y));
      case '>=':
        return expr(o.sge(x, y));
    }
  }
  if (op === '==') return pyEquals(a, b, span);
  if (op === '!=') return !pyEquals(a, b, span);
  if ((isSeq(a, 'tuple') && isSeq(b, 'tuple')) || (isSeq(a, 'list') && isSeq(b, 'list'))) {
    // Python 2: the first pair of items that are not equal decides, by their own comparison (a z3
    // term's is a z3 Bool, which the comparison returns); otherwise the shorter sequence is less.
    const x = (a as PyTuple).items;
    const y = (b as PyTuple).items;
    const visits = visitBudget(span, 'ordering these values');
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (!pyEquals(x[i], y[i], span, visits)) return compare(op, x[i], y[i], span);
    }
    return ordered(op, x.length - y.length);
  }
  return ordered(op, order(a, b, op, span));
}

/**
 * The order of two Python values of one kind, as Python 2 orders them:
 * numbers by value, str by bytes, unicode by code point (a str meeting a
 * unicode is decoded as ASCII). Python 2 also orders values of different
 * types (by type name); the dialect refuses that (SPEC020,
 * docs/spec-errors.md).
 */
function order(a: PyValue, b: PyValue, op: CmpOp, span: Span): number {
  if (isPyInt(a) && isPyInt(b)) {
    const x = intOf(a);
    const y = intOf(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (isText(a) && isText(b)) {
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    return textOrder((typeof a === 'string' ? asciiDecode(a, span) : a).text, (typeof b === 'string' ? asciiDecode(b, span) : b).text);
  }
  if (a === null && b === null) return 0;
  throw typeError(span, `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

/**
 * An Accessor compared with a Python value. hv6's Accessor defines no
 * comparison, so Python 2 compares objects: `==` is identity, `!=` its
 * negation, and an order against a number or None puts the number (None
 * first) below the object. Upstream evaluates these without raising; so do
 * we, with warning SPEC201. Against a z3 term z3py raises ("Python value
 * cannot be used as a Z3 ..."): undefined here, and the caller raises SPEC029.
 */
function accessorCompare(op: CmpOp, a: PyValue, b: PyValue, span: Span): boolean | undefined {
  const ia = accessorInfo(a);
  const ib = accessorInfo(b);
  const info = ia ?? ib;
  if (!info) return undefined;
  const other = ia ? b : a;
  if (isTerm(other)) return undefined;
  let r: boolean;
  if (op === '==' || op === '!=') {
    r = op === '==' ? a === b : a !== b;
  } else {
    // Python 2: None < numbers < other objects; two objects order by address (not reproducible).
    if (!(other === null || isPyInt(other))) return undefined;
    const accOnLeft = ia !== undefined;
    const less = !accOnLeft; // the smaller side is the non-object
    r = op === '<' || op === '<=' ? less : !less;
  }
  warn('SPEC201', span, `${info.what} is an Accessor, not a value: '${op}' compares Python objects and gives ${r ? 'True' : 'False'} (as upstream)`, [info.hint]);
  return r;
}
