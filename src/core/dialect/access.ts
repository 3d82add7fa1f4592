/**
 * Python's attribute and item access on dialect values: `x.a`, `x.a = v`,
 * `x[i]`, `x[i] = v` and slices, for lists and tuples, modules and enums,
 * z3 terms (their few z3py methods) and the kernel-state objects
 * (kernelstate.ts). Writes into the state take the interpreter as the
 * `FunctionCaller` that whole-map lambdas run through.
 */
import { BOOL, type Term } from '../smt/term.ts';
import { type Span, TEXT_START } from '../span.ts';
import { enumMemberPath } from './builtins/dt.ts';
import { badArgument, closest, indexOutOfRange, invalidWrite, typeError, unknownAttribute, valueError } from './errors.ts';
import {
  indexAccessor,
  indexRefcnt,
  indexStruct,
  setAccessorItem,
  setStateAttr,
  setStructAttr,
  stateAttr,
  structAttr,
} from './kernelstate.ts';
import type { FunctionCaller } from './lambda-field.ts';
import { MAX_SEQ } from './limits.ts';
import { bumpEpoch } from './maps.ts';
import { sequenceMethod, textMethod } from './methods.ts';
import { Builtin, PyList, PyLong, PyTuple, PyUnicode, type PyValue, SortValue } from './objects.ts';
import { codePoints, describe, intOf, isPyInt, isTerm, pyInteger, sortLabel, termOf, typeName } from './values.ts';

/** `obj.attr = value`. */
export function setAttr(obj: PyValue, attr: string, value: PyValue, span: Span, caller: FunctionCaller): void {
  if (typeof obj === 'object' && obj !== null && !isTerm(obj)) {
    switch (obj.kind) {
      case 'kstate':
        setStateAttr(obj, attr, value, span);
        return;
      case 'struct':
        setStructAttr(obj, attr, value, span, caller);
        return;
      case 'module':
      case 'enum':
        throw invalidWrite(span, `cannot assign to ${obj.kind === 'module' ? `module '${obj.name}'` : `dt.${obj.name}`}: built-in modules are read-only`);
      case 'accessor':
        throw invalidWrite(span, `cannot set attributes of an Accessor (${obj.field.path})`);
    }
  }
  throw typeError(span, `cannot set attribute '${attr}' on ${describe(obj)}`);
}

/** `obj[idx] = value`. */
export function setItem(obj: PyValue, idx: PyValue, value: PyValue, span: Span, caller: FunctionCaller): void {
  if (typeof obj === 'object' && obj !== null && !isTerm(obj)) {
    switch (obj.kind) {
      case 'list': {
        bumpEpoch();
        const i = seqIndex(obj.items.length, idx, span, 'list');
        obj.items[i] = value;
        return;
      }
      case 'accessor':
        setAccessorItem(obj, idx, value, span, caller);
        return;
      case 'struct':
        throw invalidWrite(
          span,
          `cannot assign to an element of ${obj.schema.name} itself`,
          `assign one of its fields, e.g. new.${obj.schema.name}[i].${obj.schema.fields[0].name} = value`,
        );
      case 'refcnt':
        throw invalidWrite(
          span,
          `cannot assign to the Refcnt field ${obj.field.path}`,
          'a Refcnt changes only with += 1 or -= 1 on an owned object, e.g. new.procs[pid].nr_pages[pn] += 1',
        );
    }
  }
  throw typeError(span, `'${typeName(obj)}' object does not support item assignment`);
}


/** How `'{0.name}'.format(x)` reads: as `x.name` and `x[key]` do. */
const FIELDS = {
  attr: (obj: PyValue, name: string) => getAttr(obj, name, TEXT_START),
  item: (obj: PyValue, key: PyValue) => getItem(obj, key, TEXT_START),
};

/** `obj.attr`. */
export function getAttr(obj: PyValue, attr: string, span: Span): PyValue {
  if (isTerm(obj)) return termAttr(obj.term, attr, span);
  if (typeof obj === 'string') return textMethod(obj, attr, span, FIELDS);
  if (isPyInt(obj)) return intAttr(obj, attr, span);
  if (typeof obj === 'object' && obj !== null) {
    switch (obj.kind) {
      case 'module': {
        if (obj.attrs.has(attr)) return obj.attrs.get(attr)!;
        const c = obj.suggest?.(attr) ?? qualified(obj.name, closest(attr, obj.attrs.keys()));
        throw unknownAttribute(span, `module '${obj.name}'`, attr, c);
      }
      case 'enum': {
        const m = obj.members.get(attr);
        if (m) return m;
        const c = enumMemberPath(attr) ?? qualified(`dt.${obj.name}`, closest(attr, obj.members.keys()));
        throw unknownAttribute(span, `dt.${obj.name}`, attr, c);
      }
      case 'kstate':
        return stateAttr(obj, attr, span);
      case 'struct':
        return structAttr(obj, attr, span);
      case 'sort':
        if (attr === 'size') {
          const w = obj.sort;
          return new Builtin('sort.size', () => BigInt(w));
        }
        break;
      case 'list':
      case 'tuple':
        return sequenceMethod(obj, attr, span);
      case 'unicode':
        return textMethod(obj, attr, span, FIELDS);
      case 'accessor':
        throw unknownAttribute(span, `the Accessor of ${obj.field.path}`, attr, undefined);
      case 'refcnt':
        throw unknownAttribute(span, `the Refcnt accessor of ${obj.field.path}`, attr, undefined);
    }
  }
  throw unknownAttribute(span, `'${typeName(obj)}' object`, attr, undefined);
}

/** The attributes of an int, long or bool: its parts as a number, and bit_length(). */
function intAttr(v: bigint | boolean | PyLong, attr: string, span: Span): PyValue {
  const n = intOf(v);
  const same = pyInteger(n, v instanceof PyLong);
  switch (attr) {
    case 'real':
    case 'numerator':
      return same;
    case 'imag':
      return pyInteger(0n, v instanceof PyLong);
    case 'denominator':
      return pyInteger(1n, v instanceof PyLong);
    case 'conjugate':
      return new Builtin(`${typeName(v)}.conjugate`, () => same);
    case 'bit_length':
      return new Builtin(`${typeName(v)}.bit_length`, (args, _kw, site) => {
        if (args.length) throw badArgument(site.span, `bit_length() takes no arguments (${args.length} given)`);
        return pyInteger(BigInt((n < 0n ? -n : n).toString(2).replace(/^0$/, '').length), v instanceof PyLong);
      });
  }
  throw unknownAttribute(span, `'${typeName(v)}' object`, attr, closest(attr, ['real', 'imag', 'numerator', 'denominator', 'conjugate', 'bit_length']));
}

function qualified(prefix: string, name: string | undefined): string | undefined {
  return name === undefined ? undefined : `${prefix}.${name}`;
}

/** The few z3py methods of expressions that specs use. */
function termAttr(t: Term, attr: string, span: Span): PyValue {
  const method = (f: () => PyValue) =>
    new Builtin(`expr.${attr}`, (args, _kw, site) => {
      if (args.length) throw badArgument(site.span, `${attr}() takes no arguments (${args.length} given)`);
      return f();
    });
  switch (attr) {
    case 'size':
      if (t.sort === BOOL) break;
      return method(() => BigInt(t.sort));
    case 'sort':
      return method(() => new SortValue(t.sort));
    case 'as_long':
    case 'as_signed_long':
      return method(() => {
        if (t.op !== 'const' || typeof t.value !== 'bigint') {
          throw typeError(span, `${attr}() needs a bit-vector constant, got a symbolic term`);
        }
        const v = t.value;
        if (attr === 'as_long') return v;
        return v >= 1n << BigInt(t.sort - 1) ? v - (1n << BigInt(t.sort)) : v;
      });
    case 'eq':
      return new Builtin('expr.eq', (args, _kw, site) => {
        if (args.length !== 1) throw badArgument(site.span, `eq() takes exactly one argument (${args.length} given)`);
        return termOf(args[0]) === t;
      });
  }
  throw unknownAttribute(span, `a ${sortLabel(t.sort)} term`, attr, closest(attr, ['size', 'sort', 'as_long', 'as_signed_long', 'eq']));
}

function seqIndex(len: number, idx: PyValue, span: Span, what: string): number {
  if (!isPyInt(idx)) throw typeError(span, `${what} indices must be integers, not ${typeName(idx)}`);
  let i = intOf(idx);
  if (i < 0n) i += BigInt(len);
  if (i < 0n || i >= BigInt(len)) throw indexOutOfRange(span, what);
  return Number(i);
}

/** `obj[idx]`. */
export function getItem(obj: PyValue, idx: PyValue, span: Span): PyValue {
  if (typeof obj === 'string') return obj[seqIndex(obj.length, idx, span, 'string')];
  if (typeof obj === 'object' && obj !== null && !isTerm(obj)) {
    switch (obj.kind) {
      case 'tuple':
      case 'list':
        return obj.items[seqIndex(obj.items.length, idx, span, obj.kind)];
      case 'unicode': {
        const cps = codePoints(obj);
        return new PyUnicode(cps[seqIndex(cps.length, idx, span, 'string')]);
      }
      case 'xrange': {
        if (obj.length > BigInt(Number.MAX_SAFE_INTEGER)) throw valueError(span, 'xrange object too large to index');
        return obj.start + BigInt(seqIndex(Number(obj.length), idx, span, 'xrange object')) * obj.step;
      }
      case 'struct':
        return indexStruct(obj, idx);
      case 'accessor':
        return indexAccessor(obj, idx, span);
      case 'refcnt':
        return indexRefcnt(obj, idx, span);
      case 'kstate':
        throw typeError(span, "'KernelState' object is not subscriptable", 'index one of its structs, e.g. old.procs[pid]');
    }
  }
  throw typeError(
    span,
    `'${typeName(obj)}' object is not subscriptable`,
    isTerm(obj) ? 'use z3.Extract(hi, lo, x) to take bits of a bit-vector' : undefined,
  );
}

/** `obj[lo:hi:step]` of a string, tuple or list, with Python's clamping of the bounds (errors at `span`). */
export function sliceOf(obj: PyValue, lo: bigint | undefined, hi: bigint | undefined, stepOr: bigint | undefined, span: Span): PyValue {
  const step = stepOr ?? 1n;
  if (step === 0n) throw typeError(span, 'slice step cannot be zero');
  const items: readonly PyValue[] =
    typeof obj === 'string'
      ? [...obj]
      : obj instanceof PyUnicode
        ? codePoints(obj)
        : typeof obj === 'object' && obj !== null && !isTerm(obj) && (obj.kind === 'tuple' || obj.kind === 'list')
          ? obj.items
          : (() => {
              throw typeError(span, `'${typeName(obj)}' object is not subscriptable`);
            })();
  // A whole tuple (or str) sliced is itself, as CPython returns it.
  if (lo === undefined && hi === undefined && step === 1n && (obj instanceof PyTuple || typeof obj === 'string')) return obj;
  const len = BigInt(items.length);
  const clamp = (v: bigint | undefined, dflt: bigint, low: bigint, high: bigint) => {
    if (v === undefined) return dflt;
    if (v < 0n) v += len;
    return v < low ? low : v > high ? high : v;
  };
  const out: PyValue[] = [];
  if (step > 0n) {
    const a = clamp(lo, 0n, 0n, len);
    const b = clamp(hi, len, 0n, len);
    for (let i = a; i < b; i += step) out.push(items[Number(i)]);
  } else {
    const a = clamp(lo, len - 1n, -1n, len - 1n);
    const b = clamp(hi, -1n, -1n, len - 1n);
    for (let i = a; i > b; i += step) out.push(items[Number(i)]);
  }
  if (typeof obj === 'string') return out.join('');
  if (obj instanceof PyUnicode) return new PyUnicode(out.join(''));
  return typeof obj === 'object' && obj !== null && !isTerm(obj) && obj.kind === 'list' ? new PyList(out) : new PyTuple(out);
}

