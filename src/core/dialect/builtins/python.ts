/**
 * The Python built-in functions a spec may call (len, range, min, ...), on
 * concrete Python values. They never run user code as JavaScript and refuse
 * sizes that would make a spec slow (a range of more than 100000 items).
 */
import { arity, argSpan, pyInt } from '../coerce.ts';
import { typeError, valueError } from '../errors.ts';
import { MAX_SEQ, binop, compare } from '../pyops.ts';
import { type Builtin, type CallSite, PyList, PyTuple, type PyValue, describe, isPyInt, isTerm, pyStr, truthy, typeName } from '../values.ts';
import { fn } from './define.ts';

const MAX_RANGE = MAX_SEQ;

/** The items of a Python iterable (tuple, list, str). */
export function iterate(v: PyValue, site: { span: CallSite['span'] }): readonly PyValue[] {
  if (typeof v === 'string') return [...v];
  if (typeof v === 'object' && v !== null && !isTerm(v) && (v.kind === 'list' || v.kind === 'tuple')) return v.items;
  throw typeError(site.span, `'${typeName(v)}' object is not iterable`);
}

function minMax(name: 'min' | 'max') {
  return fn(name, `${name}(a, b, ...)`, `The ${name === 'min' ? 'smallest' : 'largest'} of Python ints (not z3 terms).`, (args, _kw, site) => {
    arity(site, name, args, 1, Infinity);
    const xs = args.length === 1 ? iterate(args[0], site) : args;
    if (xs.length === 0) throw valueError(site.span, `${name}() arg is an empty sequence`);
    let best = xs[0];
    for (const x of xs.slice(1)) {
      const better = compare(name === 'min' ? '<' : '>', x, best, site.span);
      if (truthy(better, site.span, `${name}()`)) best = x;
    }
    return best;
  });
}

export function pythonBuiltins(): Builtin[] {
  return [
    fn('len', 'len(s)', 'Length of a tuple, list or string.', (args, _kw, site) => {
      arity(site, 'len', args, 1);
      const v = args[0];
      if (typeof v === 'string') return BigInt(v.length);
      if (typeof v === 'object' && v !== null && !isTerm(v) && (v.kind === 'list' || v.kind === 'tuple')) return BigInt(v.items.length);
      throw typeError(argSpan(site, 0), `object of type '${typeName(v)}' has no len()`, isTerm(v) ? 'use x.size() for the width of a bit-vector' : undefined);
    }),
    fn('range', 'range([start,] stop[, step])', 'A list of Python ints (at most 100000).', (args, _kw, site) => {
      arity(site, 'range', args, 1, 3);
      const ns = args.map((a, i) => pyInt(a, argSpan(site, i), 'range'));
      const [start, stop, step] = ns.length === 1 ? [0n, ns[0], 1n] : [ns[0], ns[1], ns[2] ?? 1n];
      if (step === 0n) throw valueError(site.span, 'range() arg 3 must not be zero');
      const count = step > 0n ? (stop > start ? (stop - start + step - 1n) / step : 0n) : start > stop ? (start - stop - step - 1n) / -step : 0n;
      if (count > BigInt(MAX_RANGE)) throw valueError(site.span, `range() of ${count} items is too large for a spec (at most ${MAX_RANGE})`);
      const out: PyValue[] = [];
      for (let i = 0n, v = start; i < count; i++, v += step) out.push(v);
      return new PyList(out);
    }),
    fn('list', 'list(iterable)', 'A new list.', (args, _kw, site) => {
      arity(site, 'list', args, 0, 1);
      return new PyList(args.length ? [...iterate(args[0], site)] : []);
    }),
    fn('tuple', 'tuple(iterable)', 'A new tuple.', (args, _kw, site) => {
      arity(site, 'tuple', args, 0, 1);
      return new PyTuple(args.length ? [...iterate(args[0], site)] : []);
    }),
    fn('zip', 'zip(a, b, ...)', 'A list of tuples pairing up the items.', (args, _kw, site) => {
      const lists = args.map((a) => iterate(a, site));
      const n = lists.length ? Math.min(...lists.map((l) => l.length)) : 0;
      return new PyList(Array.from({ length: n }, (_, i) => new PyTuple(lists.map((l) => l[i]))));
    }),
    fn('enumerate', 'enumerate(s)', 'A list of (index, item) tuples.', (args, _kw, site) => {
      arity(site, 'enumerate', args, 1);
      return new PyList(iterate(args[0], site).map((x, i) => new PyTuple([BigInt(i), x])));
    }),
    minMax('min'),
    minMax('max'),
    fn('abs', 'abs(n)', 'Absolute value of a Python int.', (args, _kw, site) => {
      arity(site, 'abs', args, 1);
      const n = pyInt(args[0], argSpan(site, 0), 'abs');
      return n < 0n ? -n : n;
    }),
    fn('all', 'all(s)', 'Python True when every item is true (concrete values only; use z3.And for terms).', (args, _kw, site) => {
      arity(site, 'all', args, 1);
      return iterate(args[0], site).every((x) => truthy(x, site.span, 'all()'));
    }),
    fn('any', 'any(s)', 'Python True when some item is true (concrete values only; use z3.Or for terms).', (args, _kw, site) => {
      arity(site, 'any', args, 1);
      return iterate(args[0], site).some((x) => truthy(x, site.span, 'any()'));
    }),
    fn('sum', 'sum(s, start=0)', 'Sum of the items; works on bit-vectors too (0 + x + y).', (args, _kw, site) => {
      arity(site, 'sum', args, 1, 2);
      let acc: PyValue = args.length > 1 ? args[1] : 0n;
      for (const x of iterate(args[0], site)) acc = binop('+', acc, x, site.span);
      return acc;
    }),
    fn('int', 'int(x)', 'A Python int from an int, bool, or a decimal string.', (args, _kw, site) => {
      arity(site, 'int', args, 1);
      const v = args[0];
      if (isPyInt(v)) return pyInt(v, site.span, 'int');
      if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v) && v.length < 1000) return BigInt(v.trim());
      throw typeError(argSpan(site, 0), `int() cannot convert ${describe(v)}`, isTerm(v) ? 'a z3 term has no concrete value' : undefined);
    }),
    fn('bool', 'bool(x)', 'Python truth value of a concrete value.', (args, _kw, site) => {
      arity(site, 'bool', args, 1);
      return truthy(args[0], site.span, 'bool()');
    }),
    fn('str', 'str(x)', 'A string rendering of a value.', (args, _kw, site) => {
      arity(site, 'str', args, 1);
      return pyStr(args[0]);
    }),
    fn('hex', 'hex(n)', 'Hexadecimal string of a Python int.', (args, _kw, site) => {
      arity(site, 'hex', args, 1);
      const n = pyInt(args[0], argSpan(site, 0), 'hex');
      return n < 0n ? `-0x${(-n).toString(16)}` : `0x${n.toString(16)}`;
    }),
    fn('print', 'print(*values)', 'Does nothing (specs have no output).', () => null, true),
  ];
}
