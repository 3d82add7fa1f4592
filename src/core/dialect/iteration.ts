/**
 * Python 2's iteration protocol over dialect values: what `for` in a
 * comprehension, `list()`, `in`, unpacking and the builtins walk. A str
 * yields its bytes, a unicode its code points, a tuple or list its items (a
 * list as it is when each item is read, as Python's list iterator does), an
 * xrange its ints, and an iterator (a generator) its items once: reading it
 * consumes it. No walk reads more than MAX_SEQ items (SPEC023), so a huge
 * xrange cannot keep a spec busy.
 */
import type { Span } from '../span.ts';
import { typeError, valueError } from './errors.ts';
import { MAX_SEQ } from './limits.ts';
import { PyIterator, PyUnicode, type PyValue } from './objects.ts';
import { isTerm, typeName } from './values.ts';

/** Whether `v` can be iterated. */
export function isIterable(v: PyValue): boolean {
  if (typeof v === 'string') return true;
  if (typeof v !== 'object' || v === null || isTerm(v)) return false;
  return v.kind === 'list' || v.kind === 'tuple' || v.kind === 'unicode' || v.kind === 'xrange' || v.kind === 'iterator';
}

function notIterable(v: PyValue, span: Span): Error {
  return typeError(span, `'${typeName(v)}' object is not iterable`, isTerm(v) ? 'a z3 term is one value; to test membership use util.In or z3.Or' : undefined);
}

function tooMany(span: Span): Error {
  return valueError(span, `iterating over more than ${MAX_SEQ} items is too much for a spec`);
}

/** The next item of an iterator, or undefined when it has none (a generator asking itself is Python's ValueError). */
export function nextItem(it: PyIterator, span: Span): PyValue | undefined {
  return it.next(() => valueError(span, 'generator already executing'));
}

/** The items of `v` one at a time (consuming an iterator as they are read). */
export function* itemsOf(v: PyValue, span: Span): Generator<PyValue, void, undefined> {
  if (typeof v === 'string') {
    if (v.length > MAX_SEQ) throw tooMany(span);
    yield* v;
    return;
  }
  if (typeof v !== 'object' || v === null || isTerm(v)) throw notIterable(v, span);
  let n = 0;
  switch (v.kind) {
    case 'list':
    case 'tuple':
      // The live list: an item appended while it is walked is walked too, as in Python.
      for (let i = 0; i < v.items.length; i++) {
        if (++n > MAX_SEQ) throw tooMany(span);
        yield v.items[i];
      }
      return;
    case 'unicode':
      for (const c of v.text) {
        if (++n > MAX_SEQ) throw tooMany(span);
        yield new PyUnicode(c);
      }
      return;
    case 'xrange':
      for (let x = v.start, k = 0n; k < v.length; k++, x += v.step) {
        if (++n > MAX_SEQ) throw tooMany(span);
        yield x;
      }
      return;
    case 'iterator':
      for (;;) {
        const x = nextItem(v, span);
        if (x === undefined) return;
        if (++n > MAX_SEQ) throw tooMany(span);
        yield x;
      }
    default:
      throw notIterable(v, span);
  }
}

/** All the items of `v` (a list's or tuple's own array, not a copy: do not change it). */
export function collect(v: PyValue, span: Span): readonly PyValue[] {
  if (typeof v === 'object' && v !== null && !isTerm(v) && (v.kind === 'list' || v.kind === 'tuple')) return v.items;
  return [...itemsOf(v, span)];
}

/** `iter(v)`: an iterator over `v` (an iterator is its own). */
export function iteratorOf(v: PyValue, span: Span): PyIterator {
  if (v instanceof PyIterator) return v;
  if (!isIterable(v)) throw notIterable(v, span);
  const name = typeof v === 'string' ? 'iterator' : `${typeName(v)}iterator`;
  return new PyIterator(name === 'xrangeiterator' ? 'rangeiterator' : name, itemsOf(v, span));
}
