/**
 * Operations on the runtime values of the spec dialect (objects.ts): type
 * names and descriptions for messages, Python truthiness, ints and longs,
 * str() and repr() as Python 2 writes them.
 */
import { BOOL, type Sort, type Term, isFalse, isTrue, show } from '../smt/term.ts';
import type { Span } from '../span.ts';
import { symbolicBool, valueError } from './errors.ts';
import { WalkBudget, MAX_SEQ } from './limits.ts';
import { ExprRef, type PyList, PyLong, type PyTuple, PyUnicode, type PyValue, type PyXrange } from './objects.ts';
import { warn } from './warnings.ts';

/** Whether `v` is a z3 expression. */
export function isTerm(v: PyValue): v is ExprRef {
  return v instanceof ExprRef;
}

/** The term of a z3 expression, or undefined for any other value. */
export function termOf(v: PyValue): Term | undefined {
  return v instanceof ExprRef ? v.term : undefined;
}

/** A new z3 expression object of `t` (z3py makes one per operation). */
export function expr(t: Term): ExprRef {
  return new ExprRef(t);
}

/** A Python int, long or bool (bool is a subclass of int). */
export function isPyInt(v: PyValue): v is bigint | boolean | PyLong {
  return typeof v === 'bigint' || typeof v === 'boolean' || v instanceof PyLong;
}

/** The integer value of an int, long or bool. */
export function intOf(v: bigint | boolean | PyLong): bigint {
  return typeof v === 'boolean' ? (v ? 1n : 0n) : typeof v === 'bigint' ? v : v.value;
}

const INT_MIN = -(1n << 63n);
const INT_MAX = (1n << 63n) - 1n;

/** An integer result as Python 2 types it: a long when `long` (an operand was one) or when it leaves the 64-bit int range. */
export function pyInteger(v: bigint, long = false): bigint | PyLong {
  return long || v < INT_MIN || v > INT_MAX ? new PyLong(v) : v;
}

/** Whether `v` is a text value: a str (bytes) or a unicode. */
export function isText(v: PyValue): v is string | PyUnicode {
  return typeof v === 'string' || v instanceof PyUnicode;
}

/** A unicode's code points (Python 2.7 on Linux indexes by code point). */
export function codePoints(u: PyUnicode): string[] {
  return Array.from(u.text);
}

/**
 * A str decoded as ASCII, as Python 2 coerces a str that meets a unicode
 * (`'a' + u'b'`, `u'x' == 'x'`); a byte past 0x7f is a UnicodeDecodeError
 * (SPEC023 at `span`).
 */
export function asciiDecode(s: string, span: Span): PyUnicode {
  const bad = s.search(/[^\x00-\x7f]/);
  if (bad >= 0) {
    const byte = s.charCodeAt(bad).toString(16);
    throw valueError(span, `'ascii' codec can't decode byte 0x${byte} in position ${bad}: ordinal not in range(128)`, [
      'a byte string meets a unicode here; write both as unicode (u\'...\') or both as byte strings',
    ]);
  }
  return new PyUnicode(s);
}

/** A unicode encoded as ASCII, as Python 2's str() and print do; a character past 0x7f is a UnicodeEncodeError (SPEC023). */
export function asciiEncode(u: PyUnicode, span: Span): string {
  const cps = codePoints(u);
  const bad = cps.findIndex((c) => c > '\x7f');
  if (bad >= 0) {
    const hex = cps[bad].codePointAt(0)!.toString(16).padStart(cps[bad].codePointAt(0)! > 0xff ? 4 : 2, '0');
    throw valueError(span, `'ascii' codec can't encode character u'\\${hex.length > 2 ? 'u' : 'x'}${hex}' in position ${bad}: ordinal not in range(128)`);
  }
  return u.text;
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
  if (v instanceof ExprRef) return sortLabel(v.term.sort);
  switch (v.kind) {
    case 'unicode':
      return 'unicode';
    case 'long':
      return 'long';
    case 'iterator':
      return v.typeName;
    case 'xrange':
      return 'xrange';
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
  if (v instanceof ExprRef) return v.term.sort === BOOL ? 'a Bool term' : `a ${v.term.sort}-bit bit-vector`;
  switch (v.kind) {
    case 'unicode':
      return 'a unicode';
    case 'long':
      return `long ${v.value}`;
    case 'iterator':
      return `a ${v.typeName}`;
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
  if (v instanceof ExprRef) {
    const t = v.term;
    if (isTrue(t)) return true;
    if (isFalse(t)) return false;
    // z3py's __bool__ (__nonzero__ in Python 2) on an equality a == b is
    // a.eq(b): True only for the same AST. Ours folds identical operands to
    // True already, so an equality left symbolic is two different terms.
    if ((t.op === 'eq' && t.args.length === 2) || foldedEqualities.has(t)) {
      warn('SPEC203', span, `a z3 equality used as a Python bool in ${where} is False here (z3py compares the two expressions structurally, not their values)`, [
        'use util.If, z3.And, z3.Or or z3.Not to branch on the value of a z3 condition',
      ]);
      return false;
    }
    throw symbolicBool(span, where);
  }
  switch (v.kind) {
    case 'tuple':
    case 'list':
      return v.items.length > 0;
    case 'unicode':
      return v.text.length > 0;
    case 'long':
      return v.value !== 0n;
    case 'xrange':
      return v.length > 0n;
    default:
      return true;
  }
}

/**
 * Python 2's str() for the values a spec can print or format into messages,
 * at most MAX_SEQ characters (a longer one is SPEC023 at `span`). A term
 * prints as z3py's printer does, cut short with '…' where it is too large.
 * A unicode with a character past ASCII is a UnicodeEncodeError, as in
 * Python 2 (str() encodes it as ASCII).
 */
export function pyStr(v: PyValue, span: Span): string {
  if (v instanceof PyUnicode) return asciiEncode(v, span);
  return render(v, false, span);
}

/** Python 2's repr(). */
export function pyRepr(v: PyValue, span: Span): string {
  return render(v, true, span);
}

/** str() for a message of ours (an assert's message): a unicode shows as its text. */
export function messageText(v: PyValue, span: Span): string {
  return v instanceof PyUnicode ? v.text : render(v, false, span);
}

/**
 * repr() of a str (bytes) or a unicode, as Python 2 writes it: single
 * quotes unless the text has a ' and no ", backslash escapes for the
 * quote, the backslash, tab, newline and return, \xhh for other bytes
 * outside printable ASCII, and in a unicode \uhhhh or \Uhhhhhhhh past
 * U+00FF.
 */
function quoteText(v: string | PyUnicode): string {
  const text = typeof v === 'string' ? v : v.text;
  const q = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = typeof v === 'string' ? q : `u${q}`;
  for (const ch of typeof v === 'string' ? text : Array.from(text)) {
    const c = ch.codePointAt(0)!;
    if (ch === q || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (c >= 0x10000) out += `\\U${c.toString(16).padStart(8, '0')}`;
    else if (c >= 0x100) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (c < 0x20 || c >= 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + q;
}

/** xrange's repr: Python 2.7 writes the stop it would reach (`xrange(1, 11, 2)` for xrange(1, 10, 2)). */
function xrangeRepr(r: PyXrange): string {
  const stop = r.start + r.length * r.step;
  if (r.start === 0n && r.step === 1n) return `xrange(${stop})`;
  return r.step === 1n ? `xrange(${r.start}, ${stop})` : `xrange(${r.start}, ${stop}, ${r.step})`;
}

function render(v: PyValue, quoted: boolean, span: Span): string {
  const room = new WalkBudget(MAX_SEQ, () => valueError(span, `this would build a string of more than ${MAX_SEQ} characters`));
  const out: string[] = [];
  const put = (s: string) => {
    room.spend(s.length);
    out.push(s);
  };
  const write = (x: PyValue, q: boolean): void => {
    if (typeof x === 'string') return put(q ? quoteText(x) : x);
    if (x instanceof ExprRef) {
      // The printer may pass its length by a piece; what does not fit is cut, as it elides.
      const text = show(x.term, 6, room.remaining - 1);
      return put(text.length <= room.remaining ? text : `${text.slice(0, Math.max(0, room.remaining - 1))}…`);
    }
    if (x instanceof PyUnicode) return put(q ? quoteText(x) : x.text);
    if (x instanceof PyLong) return put(q ? `${x.value}L` : `${x.value}`);
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

function scalarStr(v: Exclude<PyValue, string | ExprRef | PyTuple | PyList | PyUnicode | PyLong>): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return v.toString();
  if (v.kind === 'xrange') return xrangeRepr(v);
  return `<${typeName(v)}>`;
}
