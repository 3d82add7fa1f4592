/**
 * Substitution of terms for terms (typically free constants by bound
 * variables, to build a quantifier from z3py-style `ForAll([x], body)`).
 * Rebuilds through the smart constructors, so the result is folded and
 * hash-consed like any other term.
 */
import * as o from './ops.ts';
import type { Term } from './term.ts';

/** Returns `t` with every occurrence of a key of `map` replaced by its value. */
export function substitute(t: Term, map: ReadonlyMap<Term, Term>): Term {
  if (map.size === 0) return t;
  const memo = new Map<number, Term>();
  const go = (u: Term): Term => {
    const hit = map.get(u);
    if (hit) return hit;
    if (u.args.length === 0) return u;
    const done = memo.get(u.id);
    if (done) return done;
    const args = u.args.map(go);
    const r = args.every((a, i) => a === u.args[i]) ? u : rebuild(u, args);
    memo.set(u.id, r);
    return r;
  };
  return go(t);
}

/** The term with `u`'s operator and parameters over new arguments. */
function rebuild(u: Term, a: Term[]): Term {
  switch (u.op) {
    case 'const':
    case 'var':
      return u;
    case 'app':
      return o.app(u.decl!, a);
    case 'not':
      return o.not(a[0]);
    case 'and':
      return o.and(...a);
    case 'or':
      return o.or(...a);
    case 'implies':
      return o.implies(a[0], a[1]);
    case 'ite':
      return o.ite(a[0], a[1], a[2]);
    case 'eq':
      return o.eq(a[0], a[1]);
    case 'distinct':
      return o.distinct(...a);
    case 'forall':
    case 'exists': {
      const n = u.params![0];
      const q = u.op === 'forall' ? o.forall : o.exists;
      return q(a.slice(0, n), a[n]);
    }
    case 'ult': return o.ult(a[0], a[1]);
    case 'ule': return o.ule(a[0], a[1]);
    case 'ugt': return o.ugt(a[0], a[1]);
    case 'uge': return o.uge(a[0], a[1]);
    case 'slt': return o.slt(a[0], a[1]);
    case 'sle': return o.sle(a[0], a[1]);
    case 'sgt': return o.sgt(a[0], a[1]);
    case 'sge': return o.sge(a[0], a[1]);
    case 'add': return o.add(a[0], a[1]);
    case 'sub': return o.sub(a[0], a[1]);
    case 'mul': return o.mul(a[0], a[1]);
    case 'neg': return o.neg(a[0]);
    case 'udiv': return o.udiv(a[0], a[1]);
    case 'urem': return o.urem(a[0], a[1]);
    case 'sdiv': return o.sdiv(a[0], a[1]);
    case 'srem': return o.srem(a[0], a[1]);
    case 'smod': return o.smod(a[0], a[1]);
    case 'bvand': return o.bvand(a[0], a[1]);
    case 'bvor': return o.bvor(a[0], a[1]);
    case 'bvxor': return o.bvxor(a[0], a[1]);
    case 'bvnot': return o.bvnot(a[0]);
    case 'shl': return o.shl(a[0], a[1]);
    case 'lshr': return o.lshr(a[0], a[1]);
    case 'ashr': return o.ashr(a[0], a[1]);
    case 'concat': return o.concat(...a);
    case 'extract': return o.extract(u.params![0], u.params![1], a[0]);
    case 'zext': return o.zext(u.params![0], a[0]);
    case 'sext': return o.sext(u.params![0], a[0]);
  }
  const never: never = u.op;
  throw new Error(`rebuild: unknown op ${never as string}`);
}
