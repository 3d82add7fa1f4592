/**
 * Binding a call's arguments to a user function's parameters, as Python
 * does: positionals in order, the rest into `*args`, keywords by name, then
 * defaults; a missing, surplus or repeated argument is SPEC010.
 */
import type { Span } from '../span.ts';
import { argumentCount, badArgument } from './errors.ts';
import { type PyFunction, PyTuple, type PyValue } from './objects.ts';

/** Python's argument binding into a call's frame: positionals, *args, keywords, defaults. */
export function bindArguments(fn: PyFunction, args: readonly PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, vars: Map<string, PyValue>, span: Span): void {
  const { positional, star, required } = fn.shape;
  const name = fn.name;
  const n = positional.length;
  if (args.length > n && !star) {
    const takes =
      required === n ? `${n} positional argument${n === 1 ? '' : 's'}` : `from ${required} to ${n} positional arguments`;
    throw argumentCount(span, name, takes, args.length);
  }
  const given = Math.min(args.length, n);
  for (let i = 0; i < given; i++) vars.set(positional[i].name, args[i]);
  if (star) vars.set(star.name, new PyTuple(args.slice(n)));
  if (kwargs) {
    for (const [k, v] of kwargs) {
      const i = positional.findIndex((q) => q.name === k);
      if (i < 0) throw badArgument(span, `${name}() got an unexpected keyword argument '${k}'`);
      if (i < given || vars.has(k)) throw badArgument(span, `${name}() got multiple values for argument '${k}'`);
      vars.set(k, v);
    }
  }
  if (given === n) return;
  const missing: string[] = [];
  for (let i = given; i < n; i++) {
    const p = positional[i];
    if (vars.has(p.name)) continue;
    const d = fn.defaults[fn.params.indexOf(p)];
    if (d !== undefined) vars.set(p.name, d);
    else missing.push(`'${p.name}'`);
  }
  if (missing.length) {
    const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
    throw badArgument(span, `${name}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`);
  }
}
