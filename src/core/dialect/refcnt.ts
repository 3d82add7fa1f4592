/**
 * The ghost-permutation update of Refcnt and Refcnt2 fields (docs/hv6-model.md §4.6).
 * The objects an owner holds sit in slots 0 .. ref(o)-1 of the permutation
 * perm(o, .); perm_inv is its inverse. `+= 1` and `-= 1` move the object
 * into or out of that prefix by swapping it with the object at the boundary
 * slot. Both return a new value; the input is untouched.
 */
import type { Refcnt2Value, RefcntValue } from '../kernel/state.ts';
import { add, sub } from '../smt/ops.ts';
import { type Term, bvConst } from '../smt/term.ts';
import { writeMap } from './maps.ts';

const SIZE_T = 64;
const ONE = bvConst(1n, SIZE_T);

/**
 * Returns the Refcnt after `ref(o) += delta` for owned object `x`:
 *
 * - `+1`: with r = ref(o), y = perm(o, r), i = perm_inv(o, x):
 *   ref(o) := r + 1; perm(o, r) := x; perm_inv(o, x) := r; then
 *   perm(o, i) := y; perm_inv(o, y) := i (the later writes win).
 * - `-1`: first ref(o) := ref(o) - 1, then the same four writes with r the
 *   new count.
 */
export function refcntStep(v: RefcntValue, o: Term, x: Term, delta: 1 | -1): RefcntValue {
  const old = v.ref.apply([o]);
  const ref = writeMap(v.ref, [o], delta === 1 ? add(old, ONE) : sub(old, ONE));
  const r = delta === 1 ? old : ref.apply([o]);
  const y = v.perm.apply([o, r]);
  const i = v.permInv.apply([o, x]);
  const perm = writeMap(writeMap(v.perm, [o, r], x), [o, i], y);
  const permInv = writeMap(writeMap(v.permInv, [o, x], r), [o, y], i);
  return { kind: 'refcnt', ref, perm, permInv };
}

/** The same swap for Refcnt2, whose objects are pairs (x1, x2); applied componentwise. */
export function refcnt2Step(v: Refcnt2Value, o: Term, x1: Term, x2: Term, delta: 1 | -1): Refcnt2Value {
  const old = v.ref.apply([o]);
  const ref = writeMap(v.ref, [o], delta === 1 ? add(old, ONE) : sub(old, ONE));
  const r = delta === 1 ? old : ref.apply([o]);
  const y1 = v.perm1.apply([o, r]);
  const y2 = v.perm2.apply([o, r]);
  const i = v.permInv.apply([o, x1, x2]);
  const perm1 = writeMap(writeMap(v.perm1, [o, r], x1), [o, i], y1);
  const perm2 = writeMap(writeMap(v.perm2, [o, r], x2), [o, i], y2);
  const permInv = writeMap(writeMap(v.permInv, [o, x1, x2], r), [o, y1, y2], i);
  return { kind: 'refcnt2', ref, perm1, perm2, permInv };
}
