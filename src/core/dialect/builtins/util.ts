/**
 * The `util` module (libirpy's util as specs use it). Its If works on terms,
 * tuples, functions and whole kernel states, with upstream's identity
 * behaviour (docs/hv6-model.md §4.7): a condition that is literally true or false
 * returns the branch object itself, and so do identical branches.
 */
import * as o from '../../smt/ops.ts';
import { ufMap } from '../../smt/fn.ts';
import { BOOL, type Term, bvConst, freshName, isFalse, isTrue, variable } from '../../smt/term.ts';
import type { Span } from '../../span.ts';
import { arity, argSpan, mustBeValue, pyInt, sortPhrase, toBool, tryToSort, widthArg } from '../coerce.ts';
import { iteOfPython, sortMismatch, typeError, valueError } from '../errors.ts';
import { iteObjects } from '../state-ite.ts';
import { compare, visitBudget } from '../pyops.ts';
import { describe, expr, isPyInt, isTerm, termOf, typeName } from '../values.ts';
import { Builtin, type CallSite, MapFnValue, ModuleValue, type PyValue, PyTuple } from '../objects.ts';
import { fn, sortTag, userSymbol } from './define.ts';

/**
 * util.If(c, a, b) with `c` already a z3 Bool. Returns `a` or `b` itself
 * when `c` is literally true/false or when they are the same object; two
 * tuples merge item by item, visiting at most MAX_VISITS items in all.
 */
function utilIf(c: Term, a: PyValue, b: PyValue, site: CallSite, visits = visitBudget(site.span, 'util.If on these tuples')): PyValue {
  visits.spend();
  if (isTrue(c)) return a;
  if (isFalse(c)) return b;
  if (a === b) return a;
  const span = site.span;
  mustBeValue(a, argSpan(site, 1));
  mustBeValue(b, argSpan(site, 2));
  if (isPyInt(a)) throw iteOfPython(span, typeName(a));
  if (isTerm(a)) {
    const bt = tryToSort(b, a.term.sort);
    if (!bt) {
      if (isTerm(b)) throw sortMismatch(span, `util.If branches differ in sort: ${sortPhrase(a.term.sort)} and ${sortPhrase(b.term.sort)}`);
      throw typeError(span, `util.If branches differ in type: ${sortPhrase(a.term.sort)} and ${describe(b)}`);
    }
    return expr(o.ite(c, a.term, bt));
  }
  if (a === null || typeof a === 'string') throw iteOfPython(span, typeName(a));
  switch (a.kind) {
    case 'kstate':
    case 'struct':
      return iteObjects(c, a, b, span);
    case 'tuple': {
      if (!(typeof b === 'object' && b !== null && !isTerm(b) && b.kind === 'tuple' && b.items.length === a.items.length)) {
        throw typeError(span, `util.If branches differ in type: ${describe(a)} and ${describe(b)}`);
      }
      return new PyTuple(a.items.map((x, i) => utilIf(c, x, b.items[i], site, visits)));
    }
    case 'function':
    case 'builtin':
    case 'mapfn':
      return new Builtin('util.If(function)', (args, kw, inner) =>
        utilIf(c, inner.invoke(a, args, kw), inner.invoke(b, args, kw), inner),
      true);
    default:
      throw iteOfPython(span, typeName(a));
  }
}

function intFn(width: number) {
  return fn(`util.i${width}`, `i${width}(k)`, `The ${width}-bit constant k (BitVecVal(k, ${width})).`, (args, _kw, site) => {
    arity(site, `i${width}`, args, 1);
    return expr(bvConst(pyInt(args[0], argSpan(site, 0), `util.i${width}`), width));
  });
}

function sortOrWidth(v: PyValue, span: Span, what: string): number {
  if (typeof v === 'object' && v !== null && !isTerm(v) && v.kind === 'sort') return v.sort;
  return widthArg(v, span, what);
}

let cached: ModuleValue | undefined;

/** The util module (stateless, built once). */
export function utilModule(): ModuleValue {
  if (cached) return cached;
  const entries: Builtin[] = [
    fn('util.If', 'If(c, a, b)', 'If-then-else on terms, tuples, functions and whole kernel states; c must be a z3 Bool.', (args, _kw, site) => {
      arity(site, 'If', args, 3);
      const c = args[0];
      if (typeof c === 'boolean') {
        throw typeError(argSpan(site, 0), 'util.If condition must be a z3 Bool, got a Python bool', 'use z3.BoolVal(True) or a z3 comparison');
      }
      return utilIf(toBool(c, argSpan(site, 0), 'util.If'), args[1], args[2], site);
    }),
    intFn(64),
    intFn(32),
    intFn(16),
    intFn(8),
    fn('util.In', 'In(v, choices)', 'Or(v == c for each c in the non-empty list choices).', (args, _kw, site) => {
      arity(site, 'In', args, 2);
      const xs = args[1];
      if (!(typeof xs === 'object' && xs !== null && !isTerm(xs) && (xs.kind === 'list' || xs.kind === 'tuple'))) {
        throw typeError(argSpan(site, 1), `util.In expects a list, got ${describe(xs)}`);
      }
      if (xs.items.length === 0) throw valueError(argSpan(site, 1), 'util.In needs a non-empty list');
      return expr(o.or(...xs.items.map((x) => toBool(compare('==', args[0], x, site.span), site.span, 'util.In'))));
    }),
    fn('util.Implies', 'Implies(a, b, *more)', 'Implies(a, And(b, *more)).', (args, _kw, site) => {
      arity(site, 'Implies', args, 2, Infinity);
      const [a, ...rest] = args.map((x, i) => toBool(x, argSpan(site, i), 'util.Implies'));
      return expr(o.implies(a, o.and(...rest)));
    }),
    fn('util.partial_update', 'partial_update(f, args, v)', 'The function equal to f except where its first len(args) arguments equal args, where it is v.', (args, _kw, site) => {
      arity(site, 'partial_update', args, 3);
      const [f, idx, v] = args;
      if (!(typeof idx === 'object' && idx !== null && !isTerm(idx) && (idx.kind === 'tuple' || idx.kind === 'list'))) {
        throw typeError(argSpan(site, 1), `util.partial_update expects a tuple of indices, got ${describe(idx)}`);
      }
      return new Builtin('util.partial_update(function)', (xs, kw, inner) => {
        const conds = idx.items.slice(0, xs.length).map((p, i) => toBool(compare('==', xs[i], p, inner.span), inner.span, 'partial_update'));
        return utilIf(o.and(...conds), v, inner.invoke(f, xs, kw), inner);
      }, true);
    }),
    fn('util.FreshBitVec', 'FreshBitVec(name, sort)', 'A new bit-vector constant whose name is made unique.', (args, _kw, site) => {
      arity(site, 'FreshBitVec', args, 2);
      const name = typeof args[0] === 'string' ? args[0] : 'fresh';
      const w = sortOrWidth(args[1], argSpan(site, 1), 'util.FreshBitVec');
      return expr(variable(freshName(userSymbol(name, sortTag(w))), w));
    }),
    fn('util.FreshBool', 'FreshBool(name)', 'A new Bool constant whose name is made unique.', (args, _kw, site) => {
      arity(site, 'FreshBool', args, 1);
      return expr(variable(freshName(userSymbol(typeof args[0] === 'string' ? args[0] : 'fresh', sortTag(BOOL))), BOOL));
    }),
    fn('util.FreshFunction', 'FreshFunction(name, *sorts)', 'A new uninterpreted function; the last sort is the range.', (args, _kw, site) => {
      arity(site, 'FreshFunction', args, 2, Infinity);
      const sorts = args.slice(1).map((s, i) => sortOrWidth(s, argSpan(site, i + 1), 'util.FreshFunction'));
      const range = sorts.pop()!;
      const shown = typeof args[0] === 'string' ? args[0] : 'fn';
      return new MapFnValue(ufMap(freshName(userSymbol(shown, [...sorts, range].map(sortTag).join('>'))), sorts, range), shown);
    }),
    fn('util.simplify', 'simplify(e)', 'Returns e; terms are already simplified as they are built.', (args, _kw, site) => {
      arity(site, 'simplify', args, 1);
      const t = termOf(args[0]);
      return t ? expr(t) : args[0];
    }),
  ];
  const attrs = new Map<string, PyValue>(entries.map((b) => [b.name.slice('util.'.length), b]));
  cached = new ModuleValue('util', attrs);
  return cached;
}
