/**
 * The Python 2 built-in functions a spec may call, as Python 2.7 defines
 * them, on the dialect's values (docs/spec-errors.md, "Python 2 in specs"):
 * len, range, xrange, map, filter, reduce, sorted, min, int(x, base), str,
 * unicode, repr, hex, oct, isinstance, getattr, next, ... They never run
 * user code as JavaScript (a function argument runs through the
 * interpreter, `site.invoke`), read attributes only as `x.name` does, and
 * refuse sizes that would make a spec slow. The builtins Python 2 has and
 * the dialect does not (eval, open, type, float, dict, ...) are SPEC003
 * when called, naming the builtin.
 */
import { getAttr } from '../access.ts';
import { arity, argSpan, pyInt } from '../coerce.ts';
import { SpecError, exhausted, floatResult, typeError, unsupportedBuiltin, valueError } from '../errors.ts';
import { formatValue } from '../format.ts';
import { sortArguments, sortItems } from '../sort.ts';
import { collect, isIterable, itemsOf, iteratorOf, nextItem } from '../iteration.ts';
import { MAX_SEQ } from '../limits.ts';
import { binop, compare } from '../pyops.ts';
import {
  asciiDecode, codePoints, describe, intOf, isPyInt, isTerm, isText, pyInteger, pyRepr, pyStr, truthy, typeName,
} from '../values.ts';
import { Builtin, type CallSite, PyIterator, PyList, PyLong, PyTuple, PyUnicode, type PyValue, PyXrange } from '../objects.ts';
import { fn } from './define.ts';

/** Python 2.7's names of what the dialect does not have, with what to write instead where there is something. */
const UNSUPPORTED: ReadonlyMap<string, string | undefined> = new Map([
  ['eval', 'a spec is code, not a program that builds code'],
  ['execfile', undefined], ['compile', undefined], ['open', undefined], ['file', undefined], ['input', undefined],
  ['raw_input', undefined], ['__import__', 'import the modules a spec may use with an import statement'], ['reload', undefined],
  ['globals', undefined], ['locals', undefined], ['vars', undefined], ['dir', undefined],
  ['setattr', 'assign the attribute: x.name = value'], ['delattr', undefined],
  ['type', 'use isinstance(x, int), or z3.is_bv(x) and z3.is_bool(x) for z3 terms'], ['id', undefined], ['hash', undefined],
  ['object', undefined], ['super', undefined], ['property', undefined], ['classmethod', undefined], ['staticmethod', undefined],
  ['issubclass', undefined], ['memoryview', undefined], ['bytearray', undefined], ['buffer', undefined],
  ['dict', 'dicts are not part of the dialect; use a list of pairs, or util.If chains over z3 terms'],
  ['set', 'sets are not part of the dialect; use a list'], ['frozenset', 'sets are not part of the dialect; use a list'],
  ['complex', undefined], ['slice', 'write the slice: s[a:b]'], ['apply', 'call the function: f(*args)'],
  ['coerce', undefined], ['intern', undefined], ['help', undefined], ['exit', undefined], ['quit', undefined],
  ['copyright', undefined], ['credits', undefined], ['license', undefined],
]);

/** The builtins whose result would be a float. */
const FLOATS: ReadonlyMap<string, string> = new Map([
  ['float', 'float()'],
  ['round', 'round()'],
]);

/**
 * The type builtins `isinstance` knows, each with the test it makes:
 * bool is an int, every value is an object, and dicts, sets and floats
 * never exist in a spec.
 */
const TYPE_TESTS = new Map<string, (v: PyValue) => boolean>([
  ['int', (v) => typeof v === 'bigint' || typeof v === 'boolean'],
  ['long', (v) => v instanceof PyLong],
  ['bool', (v) => typeof v === 'boolean'],
  ['str', (v) => typeof v === 'string'],
  ['unicode', (v) => v instanceof PyUnicode],
  ['basestring', (v) => isText(v)],
  ['list', (v) => v instanceof PyList],
  ['tuple', (v) => v instanceof PyTuple],
  ['xrange', (v) => v instanceof PyXrange],
  ['object', () => true],
  ['dict', () => false],
  ['set', () => false],
  ['frozenset', () => false],
  ['float', () => false],
  ['complex', () => false],
]);

/** Builtin objects that are types, by object (a spec that rebinds `int` has another value under that name). */
const typeBuiltins = new WeakMap<Builtin, (v: PyValue) => boolean>();

function isinstanceTest(cls: PyValue, span: CallSite['span']): (v: PyValue) => boolean {
  if (cls instanceof Builtin) {
    const t = typeBuiltins.get(cls);
    if (t) return t;
  }
  if (cls instanceof PyTuple) {
    const tests = cls.items.map((c) => isinstanceTest(c, span));
    return (v) => tests.some((t) => t(v));
  }
  throw typeError(span, 'isinstance() arg 2 must be a class, type, or tuple of classes and types');
}

/** Whether an error is Python's AttributeError (what getattr's default and hasattr catch). */
function isAttributeError(e: unknown): boolean {
  return e instanceof SpecError && (e.code === 'SPEC006' || e.code === 'SPEC007');
}

function minMax(name: 'min' | 'max') {
  return fn(name, `${name}(a, b, ..., key=None)`, `The ${name === 'min' ? 'smallest' : 'largest'} item (Python values, not z3 terms).`, (args, kw, site) => {
    arity(site, name, args, 1, Infinity);
    const key = keywords(kw, name, site, ['key']).get('key') ?? null;
    const xs = args.length === 1 ? collect(args[0], site.span) : args;
    if (xs.length === 0) throw valueError(site.span, `${name}() arg is an empty sequence`);
    const k = (x: PyValue) => (key === null ? x : site.invoke(key, [x]));
    let best = xs[0];
    let bestKey = k(best);
    for (const x of xs.slice(1)) {
      const xk = k(x);
      if (truthy(compare(name === 'min' ? '<' : '>', xk, bestKey, site.span), site.span, `${name}()`)) {
        best = x;
        bestKey = xk;
      }
    }
    return best;
  }, true);
}

/** The keyword arguments of a builtin that takes `allowed`; any other is Python's TypeError. */
function keywords(kw: ReadonlyMap<string, PyValue> | undefined, name: string, site: CallSite, allowed: readonly string[]): ReadonlyMap<string, PyValue> {
  for (const k of kw?.keys() ?? []) {
    if (!allowed.includes(k)) throw typeError(site.span, `'${k}' is an invalid keyword argument for ${name}()`);
  }
  return kw ?? new Map();
}

/** An int from `text` in `base` as int() reads it (0: the literal's own prefix decides), or undefined. */
function parseInt2(text: string, base: number): bigint | undefined {
  let s = text.trim();
  let sign = 1n;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1n;
    s = s.slice(1);
  }
  const lower = s.toLowerCase();
  let b = base;
  if (b === 0) {
    if (lower.startsWith('0x')) [b, s] = [16, s.slice(2)];
    else if (lower.startsWith('0o')) [b, s] = [8, s.slice(2)];
    else if (lower.startsWith('0b')) [b, s] = [2, s.slice(2)];
    else if (lower.length > 1 && lower.startsWith('0')) [b, s] = [8, s.slice(1)];
    else b = 10;
  } else if ((b === 16 && lower.startsWith('0x')) || (b === 8 && lower.startsWith('0o')) || (b === 2 && lower.startsWith('0b'))) {
    s = s.slice(2);
  }
  if (s === '' || s.length > 1300) return undefined;
  let v = 0n;
  for (const c of s.toLowerCase()) {
    const d = /[0-9]/.test(c) ? c.charCodeAt(0) - 48 : /[a-z]/.test(c) ? c.charCodeAt(0) - 87 : 99;
    if (d >= b) return undefined;
    v = v * BigInt(b) + BigInt(d);
  }
  return sign * v;
}

/** int(x, base) and long(x, base). */
function toInteger(name: 'int' | 'long', args: PyValue[], site: CallSite): PyValue {
  arity(site, name, args, 0, 2);
  if (args.length === 0) return pyInteger(0n, name === 'long');
  const v = args[0];
  if (args.length === 2) {
    if (!isText(v)) throw typeError(site.span, `${name}() can't convert non-string with explicit base`);
    const base = pyInt(args[1], argSpan(site, 1), name);
    if (base !== 0n && (base < 2n || base > 36n)) throw valueError(argSpan(site, 1), `${name}() base must be >= 2 and <= 36`);
    return fromText(name, v, Number(base), site);
  }
  if (isPyInt(v)) return pyInteger(intOf(v), name === 'long');
  if (isText(v)) return fromText(name, v, 10, site);
  throw typeError(argSpan(site, 0), `${name}() argument must be a string or a number, not '${typeName(v)}'`, isTerm(v) ? 'a z3 term has no Python value; use z3.simplify(x).as_long() on a constant' : undefined);
}

function fromText(name: 'int' | 'long', v: string | PyUnicode, base: number, site: CallSite): PyValue {
  const text = typeof v === 'string' ? v : v.text;
  // long() takes a trailing L, as a long literal has.
  const body = name === 'long' && /[lL]\s*$/.test(text) && base !== 0 && base < 22 ? text.replace(/[lL](\s*)$/, '$1') : text;
  const n = parseInt2(body, base);
  if (n === undefined) throw valueError(site.span, `invalid literal for ${name}() with base ${base}: ${pyRepr(v, site.span)}`);
  return pyInteger(n, name === 'long');
}

/** A sequence's items as a Python value of its own kind (filter keeps str, unicode and tuple). */
function sameKind(of: PyValue, items: PyValue[]): PyValue {
  if (typeof of === 'string') return items.join('');
  if (of instanceof PyUnicode) return new PyUnicode(items.map((x) => (x as PyUnicode).text).join(''));
  if (of instanceof PyTuple) return new PyTuple(items);
  return new PyList(items);
}

/** chr, unichr and ord. */
function character(name: 'chr' | 'unichr') {
  return fn(name, `${name}(i)`, name === 'chr' ? 'The one-byte str of code i (0-255).' : 'The one-character unicode of code point i.', (args, _kw, site) => {
    arity(site, name, args, 1);
    const n = pyInt(args[0], argSpan(site, 0), name);
    const max = name === 'chr' ? 255n : 0x10ffffn;
    if (n < 0n || n > max) throw valueError(argSpan(site, 0), name === 'chr' ? 'chr() arg not in range(256)' : 'unichr() arg not in range(0x110000) (wide Python build)');
    const c = String.fromCodePoint(Number(n));
    return name === 'chr' ? c : new PyUnicode(c);
  });
}

/** hex, oct and bin of an int or long, as Python 2 writes them (a long's hex and oct end in L). */
function radixText(name: 'hex' | 'oct' | 'bin') {
  return fn(name, `${name}(n)`, `The ${name === 'hex' ? 'hexadecimal' : name === 'oct' ? 'octal' : 'binary'} string of a Python int.`, (args, _kw, site) => {
    arity(site, name, args, 1);
    const v = args[0];
    if (!isPyInt(v)) throw typeError(argSpan(site, 0), `${name}() argument can't be converted to ${name}`, isTerm(v) ? 'a z3 term has no Python value' : undefined);
    const n = intOf(v);
    const mag = n < 0n ? -n : n;
    const sign = n < 0n ? '-' : '';
    const long = v instanceof PyLong && name !== 'bin' ? 'L' : '';
    if (name === 'hex') return `${sign}0x${mag.toString(16)}${long}`;
    if (name === 'bin') return `${sign}0b${mag.toString(2)}`;
    return mag === 0n ? `0${long}` : `${sign}0${mag.toString(8)}${long}`;
  });
}

export function pythonBuiltins(): Builtin[] {
  const out: Builtin[] = [
    fn('len', 'len(s)', 'Length of a str, unicode, tuple, list or xrange.', (args, _kw, site) => {
      arity(site, 'len', args, 1);
      const v = args[0];
      if (typeof v === 'string') return BigInt(v.length);
      if (typeof v === 'object' && v !== null && !isTerm(v)) {
        if (v.kind === 'list' || v.kind === 'tuple') return BigInt(v.items.length);
        if (v.kind === 'unicode') return BigInt(codePoints(v).length);
        if (v.kind === 'xrange') return v.length;
      }
      throw typeError(argSpan(site, 0), `object of type '${typeName(v)}' has no len()`, isTerm(v) ? 'use x.size() for the width of a bit-vector' : undefined);
    }),
    fn('range', 'range([start,] stop[, step])', 'A list of Python ints (at most 100000).', (args, _kw, site) => {
      const r = rangeArgs('range', args, site);
      if (r.length > BigInt(MAX_SEQ)) throw valueError(site.span, `range() of ${r.length} items is too large for a spec (at most ${MAX_SEQ})`);
      return new PyList([...itemsOf(r, site.span)]);
    }),
    fn('xrange', 'xrange([start,] stop[, step])', 'The ints of a range, made as they are read.', (args, _kw, site) => rangeArgs('xrange', args, site)),
    fn('list', 'list(iterable)', 'A new list.', (args, _kw, site) => {
      arity(site, 'list', args, 0, 1);
      return new PyList(args.length ? [...collect(args[0], site.span)] : []);
    }),
    fn('tuple', 'tuple(iterable)', 'A tuple of the items (a tuple itself is returned as is).', (args, _kw, site) => {
      arity(site, 'tuple', args, 0, 1);
      if (args.length && args[0] instanceof PyTuple) return args[0];
      return new PyTuple(args.length ? [...collect(args[0], site.span)] : []);
    }),
    fn('zip', 'zip(a, b, ...)', 'A list of tuples pairing up the items.', (args, _kw, site) => {
      const lists = args.map((a) => collect(a, site.span));
      const n = lists.length ? Math.min(...lists.map((l) => l.length)) : 0;
      return new PyList(Array.from({ length: n }, (_, i) => new PyTuple(lists.map((l) => l[i]))));
    }),
    fn('enumerate', 'enumerate(s, start=0)', 'An iterator of (index, item) pairs.', (args, kw, site) => {
      arity(site, 'enumerate', args, 1, 2);
      const start = args[1] ?? keywords(kw, 'enumerate', site, ['start']).get('start') ?? 0n;
      let i = pyInt(start, site.span, 'enumerate');
      const items = itemsOf(args[0], site.span);
      return new PyIterator('enumerate', (function* () {
        for (const x of items) yield new PyTuple([pyInteger(i++), x]);
      })());
    }, true),
    fn('map', 'map(f, s, ...)', 'A list of f applied to the items (to the items of each list in turn; None pairs them up).', (args, _kw, site) => {
      arity(site, 'map', args, 2, Infinity);
      const f = args[0];
      const lists = args.slice(1).map((a) => collect(a, site.span));
      const n = Math.max(...lists.map((l) => l.length));
      const out: PyValue[] = [];
      for (let i = 0; i < n; i++) {
        const xs = lists.map((l) => (i < l.length ? l[i] : null));
        out.push(f === null ? (xs.length === 1 ? xs[0] : new PyTuple(xs)) : site.invoke(f, xs));
      }
      return new PyList(out);
    }),
    fn('filter', 'filter(f, s)', 'The items for which f is true (f None: the true items); a str or tuple stays one.', (args, _kw, site) => {
      arity(site, 'filter', args, 2);
      const f = args[0];
      const keep = [...itemsOf(args[1], site.span)].filter((x) => truthy(f === null ? x : site.invoke(f, [x]), site.span, 'filter()'));
      return sameKind(args[1], keep);
    }),
    fn('reduce', 'reduce(f, s[, initial])', 'f folded over the items from the left.', (args, _kw, site) => {
      arity(site, 'reduce', args, 2, 3);
      const items = [...itemsOf(args[1], site.span)];
      if (args.length < 3 && items.length === 0) throw typeError(site.span, 'reduce() of empty sequence with no initial value');
      let acc = args.length === 3 ? args[2] : items.shift()!;
      for (const x of items) acc = site.invoke(args[0], [acc, x]);
      return acc;
    }),
    fn('sorted', 'sorted(s, cmp=None, key=None, reverse=False)', 'A new sorted list (stable).', (args, kw, site) => {
      arity(site, 'sorted', args, 1, 4);
      return new PyList(sortItems([...collect(args[0], site.span)], sortArguments(args.slice(1), kw, 'sorted', site), 'sorted', site));
    }, true),
    fn('reversed', 'reversed(seq)', 'An iterator over a sequence from its end.', (args, _kw, site) => {
      arity(site, 'reversed', args, 1);
      const v = args[0];
      if (!isText(v) && !(v instanceof PyList) && !(v instanceof PyTuple) && !(v instanceof PyXrange)) {
        throw typeError(argSpan(site, 0), 'argument to reversed() must be a sequence');
      }
      const items = [...collect(v, site.span)].reverse();
      return new PyIterator(v instanceof PyList ? 'listreverseiterator' : 'reversed', items[Symbol.iterator]());
    }),
    fn('iter', 'iter(s)', 'An iterator over s.', (args, _kw, site) => {
      arity(site, 'iter', args, 1);
      return iteratorOf(args[0], argSpan(site, 0));
    }),
    fn('next', 'next(it[, default])', 'The next item of an iterator (the default, or StopIteration, at its end).', (args, _kw, site) => {
      arity(site, 'next', args, 1, 2);
      const it = args[0];
      if (!(it instanceof PyIterator)) throw typeError(argSpan(site, 0), `${typeName(it)} object is not an iterator`, isIterable(it) ? 'use next(iter(x)) for the first item of a sequence' : undefined);
      const v = nextItem(it, site.span);
      if (v !== undefined) return v;
      if (args.length === 2) return args[1];
      throw exhausted(site.span, `the ${it.typeName}`);
    }),
    minMax('min'),
    minMax('max'),
    fn('abs', 'abs(n)', 'Absolute value of a Python int.', (args, _kw, site) => {
      arity(site, 'abs', args, 1);
      const v = args[0];
      const n = pyInt(v, argSpan(site, 0), 'abs');
      return pyInteger(n < 0n ? -n : n, v instanceof PyLong);
    }),
    fn('all', 'all(s)', 'Python True when every item is true (concrete values only; use z3.And for terms).', (args, _kw, site) => {
      arity(site, 'all', args, 1);
      for (const x of itemsOf(args[0], site.span)) if (!truthy(x, site.span, 'all()')) return false;
      return true;
    }),
    fn('any', 'any(s)', 'Python True when some item is true (concrete values only; use z3.Or for terms).', (args, _kw, site) => {
      arity(site, 'any', args, 1);
      for (const x of itemsOf(args[0], site.span)) if (truthy(x, site.span, 'any()')) return true;
      return false;
    }),
    fn('sum', 'sum(s, start=0)', 'Sum of the items; works on bit-vectors too (0 + x + y).', (args, _kw, site) => {
      arity(site, 'sum', args, 1, 2);
      let acc: PyValue = args.length > 1 ? args[1] : 0n;
      if (isText(acc)) throw typeError(site.span, "sum() can't sum strings [use ''.join(seq) instead]");
      for (const x of itemsOf(args[0], site.span)) acc = binop('+', acc, x, site.span);
      return acc;
    }),
    fn('int', 'int(x[, base])', 'A Python int from an int, bool, long or a string (in base 2-36, or 0: as a literal).', (args, _kw, site) => toInteger('int', args, site)),
    fn('long', 'long(x[, base])', 'A Python long.', (args, _kw, site) => toInteger('long', args, site)),
    fn('bool', 'bool(x)', 'Python truth value of a concrete value.', (args, _kw, site) => {
      arity(site, 'bool', args, 0, 1);
      return args.length ? truthy(args[0], site.span, 'bool()') : false;
    }),
    fn('str', 'str(x)', "A string rendering of a value (a unicode is encoded as ASCII, as Python 2's str() does).", (args, _kw, site) => {
      arity(site, 'str', args, 0, 1);
      return args.length ? pyStr(args[0], site.span) : '';
    }),
    fn('unicode', 'unicode(x)', 'A unicode rendering of a value (a str is decoded as ASCII).', (args, _kw, site) => {
      arity(site, 'unicode', args, 0, 1);
      if (!args.length) return new PyUnicode('');
      const v = args[0];
      return v instanceof PyUnicode ? v : asciiDecode(pyStr(v, site.span), site.span);
    }),
    fn('basestring', 'basestring', 'The type of str and unicode (for isinstance).', (_args, _kw, site) => {
      throw typeError(site.span, 'The basestring type cannot be instantiated');
    }),
    fn('repr', 'repr(x)', "Python 2's repr of a value.", (args, _kw, site) => {
      arity(site, 'repr', args, 1);
      return pyRepr(args[0], site.span);
    }),
    fn('format', 'format(value[, spec])', 'A value formatted by the format mini-language.', (args, _kw, site) => {
      arity(site, 'format', args, 1, 2);
      const spec = args[1] ?? '';
      if (!isText(spec)) throw typeError(argSpan(site, 1), `format() argument 2 must be str, not ${typeName(spec)}`);
      const text = formatValue(args[0], typeof spec === 'string' ? spec : spec.text, site.span);
      return spec instanceof PyUnicode ? new PyUnicode(text) : text;
    }),
    radixText('hex'),
    radixText('oct'),
    radixText('bin'),
    character('chr'),
    character('unichr'),
    fn('ord', 'ord(c)', 'The code of a one-character str or unicode.', (args, _kw, site) => {
      arity(site, 'ord', args, 1);
      const v = args[0];
      const chars = typeof v === 'string' ? [...v] : v instanceof PyUnicode ? codePoints(v) : undefined;
      if (!chars) throw typeError(argSpan(site, 0), `ord() expected string of length 1, but ${typeName(v)} found`);
      if (chars.length !== 1) throw typeError(argSpan(site, 0), `ord() expected a character, but string of length ${chars.length} found`);
      return BigInt(chars[0].codePointAt(0)!);
    }),
    fn('cmp', 'cmp(a, b)', '-1, 0 or 1 as a is less than, equal to or greater than b.', (args, _kw, site) => {
      arity(site, 'cmp', args, 2);
      const [a, b] = args;
      if (truthy(compare('==', a, b, site.span), site.span, 'cmp()')) return 0n;
      return truthy(compare('<', a, b, site.span), site.span, 'cmp()') ? -1n : 1n;
    }),
    fn('divmod', 'divmod(a, b)', '(a // b, a % b).', (args, _kw, site) => {
      arity(site, 'divmod', args, 2);
      return new PyTuple([binop('//', args[0], args[1], site.span), binop('%', args[0], args[1], site.span)]);
    }),
    fn('pow', 'pow(a, b[, m])', 'a ** b, or (a ** b) % m computed without the large power.', (args, _kw, site) => {
      arity(site, 'pow', args, 2, 3);
      if (args.length === 2 || args[2] === null) return binop('**', args[0], args[1], site.span);
      const [a, b, m] = args.map((x, i) => pyInt(x, argSpan(site, i), 'pow'));
      if (b < 0n) throw typeError(site.span, 'pow() 2nd argument cannot be negative when 3rd argument specified');
      if (m === 0n) throw valueError(site.span, 'pow() 3rd argument cannot be 0');
      let r = 1n;
      let base = ((a % m) + m) % m;
      for (let e = b; e > 0n; e >>= 1n) {
        if (e & 1n) r = (r * base) % m;
        base = (base * base) % m;
      }
      // Python's result takes the sign of m.
      if (m < 0n && r > 0n) r += m;
      return pyInteger(r, args.some((x) => x instanceof PyLong));
    }),
    fn('isinstance', 'isinstance(x, cls)', 'Whether x is of the type cls (int, long, str, unicode, basestring, list, tuple, bool) or of one in a tuple of them.', (args, _kw, site) => {
      arity(site, 'isinstance', args, 2);
      return isinstanceTest(args[1], argSpan(site, 1))(args[0]);
    }),
    fn('callable', 'callable(x)', 'Whether x can be called.', (args, _kw, site) => {
      arity(site, 'callable', args, 1);
      const v = args[0];
      return typeof v === 'object' && v !== null && !isTerm(v) && (v.kind === 'function' || v.kind === 'builtin' || v.kind === 'mapfn' || v.kind === 'accessor' || v.kind === 'refcnt');
    }),
    fn('getattr', 'getattr(x, name[, default])', 'x.name (the default when x has no such attribute).', (args, _kw, site) => {
      arity(site, 'getattr', args, 2, 3);
      const name = attrName(args[1], site, 'getattr');
      try {
        return getAttr(args[0], name, site.span);
      } catch (e) {
        if (args.length === 3 && isAttributeError(e)) return args[2];
        throw e;
      }
    }),
    fn('hasattr', 'hasattr(x, name)', 'Whether x has the attribute name.', (args, _kw, site) => {
      arity(site, 'hasattr', args, 2);
      const name = attrName(args[1], site, 'hasattr');
      try {
        getAttr(args[0], name, site.span);
        return true;
      } catch (e) {
        if (isAttributeError(e)) return false;
        throw e;
      }
    }),
    fn('print', 'print(*values, sep=" ", end="\\n")', 'Writes the values (from __future__ import print_function); specs have no output to show.', (args, kw, site) => {
      const opts = keywords(kw, 'print', site, ['sep', 'end', 'file']);
      const file = opts.get('file') ?? null;
      if (file !== null) throw typeError(site.span, `print() file= needs an object with a write method, got ${describe(file)}`);
      const text = (k: string, dflt: string) => {
        const v = opts.get(k) ?? null;
        if (v === null) return dflt;
        if (!isText(v)) throw typeError(site.span, `${k} must be None, str or unicode, not ${typeName(v)}`);
        return typeof v === 'string' ? v : v.text;
      };
      site.output?.write(args.map((a) => pyStr(a, site.span)).join(text('sep', ' ')) + text('end', '\n'));
      return null;
    }, true),
  ];
  for (const [name, what] of FLOATS) {
    out.push(fn(name, `${name}(x)`, 'Not in specs: the result is a float.', (_args, _kw, site) => {
      throw floatResult(site.span, what);
    }, true));
  }
  for (const [name, hint] of UNSUPPORTED) {
    out.push(fn(name, `${name}(...)`, 'Not in specs.', (_args, _kw, site) => {
      throw unsupportedBuiltin(site.span, name, hint);
    }, true));
  }
  for (const b of out) {
    const t = TYPE_TESTS.get(b.name);
    if (t) typeBuiltins.set(b, t);
  }
  return out;
}

function attrName(v: PyValue, site: CallSite, fnName: string): string {
  if (typeof v === 'string') return v;
  if (v instanceof PyUnicode) return asciiDecode(v.text, site.span).text;
  throw typeError(argSpan(site, 1), `${fnName}(): attribute name must be string`);
}

/** The arguments of range and xrange, as an xrange (Python 2 refuses bounds past a C long in xrange). */
function rangeArgs(name: 'range' | 'xrange', args: PyValue[], site: CallSite): PyXrange {
  arity(site, name, args, 1, 3);
  const ns = args.map((a, i) => {
    if (!isPyInt(a)) throw typeError(argSpan(site, i), `${name}() integer end argument expected, got ${typeName(a)}.`);
    return intOf(a);
  });
  const [start, stop, step] = ns.length === 1 ? [0n, ns[0], 1n] : [ns[0], ns[1], ns[2] ?? 1n];
  if (step === 0n) throw valueError(site.span, `${name}() step argument must not be zero`);
  if (name === 'xrange' && ns.some((n) => n < -(1n << 63n) || n >= 1n << 63n)) throw typeError(site.span, 'Python int too large to convert to C long');
  return new PyXrange(start, stop, step);
}
