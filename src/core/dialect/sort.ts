/**
 * Python 2's sort, as `sorted()` and `list.sort()` do it: stable, by `<`
 * on the items (or on their `key`), or by a `cmp` function, reversed on
 * request; the functions run through the interpreter.
 */
import { typeError } from './errors.ts';
import type { CallSite, PyValue } from './objects.ts';
import { compare } from './pyops.ts';
import { intOf, isPyInt, truthy } from './values.ts';

/**
 * The cmp, key and reverse of a sort from its positional arguments after
 * the list (`sorted(xs, f)` is `sorted(xs, cmp=f)`) and its keywords; any
 * other keyword, or one given twice, is Python's TypeError.
 */
export function sortArguments(args: readonly PyValue[], kw: ReadonlyMap<string, PyValue> | undefined, fnName: string, site: CallSite): ReadonlyMap<string, PyValue> {
  const names = ['cmp', 'key', 'reverse'];
  for (const k of kw?.keys() ?? []) {
    if (!names.includes(k)) throw typeError(site.span, `'${k}' is an invalid keyword argument for ${fnName}()`);
  }
  const out = new Map(kw ?? []);
  args.forEach((v, i) => {
    if (out.has(names[i])) throw typeError(site.span, `${fnName}() got multiple values for keyword argument '${names[i]}'`);
    out.set(names[i], v);
  });
  return out;
}

/** `items` sorted as the sort arguments `opts` (sortArguments) say; a new array. */
export function sortItems(items: PyValue[], opts: ReadonlyMap<string, PyValue>, name: string, site: CallSite): PyValue[] {
  const cmpFn = opts.get('cmp') ?? null;
  const key = opts.get('key') ?? null;
  const reverse = truthy(opts.get('reverse') ?? false, site.span, `${name}()`);
  const keyed = items.map((v) => ({ v, k: key === null ? v : site.invoke(key, [v]) }));
  const less = (a: PyValue, b: PyValue): number => {
    if (cmpFn !== null) {
      const r = site.invoke(cmpFn, [a, b]);
      if (!isPyInt(r)) throw typeError(site.span, 'comparison function must return int');
      const n = intOf(r);
      return n < 0n ? -1 : n > 0n ? 1 : 0;
    }
    if (truthy(compare('<', a, b, site.span), site.span, `${name}()`)) return -1;
    return truthy(compare('<', b, a, site.span), site.span, `${name}()`) ? 1 : 0;
  };
  // Python reverses, sorts stably, reverses again: equal items keep their order either way.
  if (reverse) keyed.reverse();
  keyed.sort((a, b) => less(a.k, b.k));
  if (reverse) keyed.reverse();
  return keyed.map((x) => x.v);
}
