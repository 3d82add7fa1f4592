/**
 * Hand-built spec steps for the lemma tests: small state editors written
 * with the MapFn API (independent of the spec interpreter), including the
 * Refcnt swap of docs/hv6-model.md §4.6.
 */
import { type MapFn, iteMap, updateMap } from '../../../src/core/smt/fn.ts';
import * as o from '../../../src/core/smt/ops.ts';
import { type Term, bvConst } from '../../../src/core/smt/term.ts';
import { type AbstractState, type FieldValue, type Refcnt2Value, type RefcntValue, iteField } from '../../../src/core/kernel/state.ts';

export const u64 = (n: number | bigint): Term => bvConst(n, 64);

/** A state being edited: every edit returns a new state. */
export class Step {
  constructor(readonly s: AbstractState) {}

  private with(path: string, v: FieldValue): Step {
    const m = new Map(this.s);
    m.set(path, v);
    return new Step(m);
  }

  map(path: string): MapFn {
    const v = this.s.get(path)!;
    if ('kind' in v) return v.ref;
    return v;
  }

  read(path: string, ...xs: Term[]): Term {
    return this.map(path).apply(xs);
  }

  /** `path[prefix...] := value` (a broadcast when the prefix is short). */
  set(path: string, prefix: Term[], value: Term): Step {
    const v = this.s.get(path)!;
    if ('kind' in v) return this.with(path, { ...v, ref: updateMap(v.ref, prefix, value) } as FieldValue);
    return this.with(path, updateMap(v, prefix, value));
  }

  /** Refcnt `path[owner][owned] += 1` (docs/hv6-model.md §4.6). */
  inc(path: string, owner: Term, owned: Term[]): Step {
    return this.bump(path, owner, owned, +1);
  }

  /** Refcnt `path[owner][owned] -= 1`. */
  dec(path: string, owner: Term, owned: Term[]): Step {
    return this.bump(path, owner, owned, -1);
  }

  private bump(path: string, owner: Term, owned: Term[], by: 1 | -1): Step {
    const v = this.s.get(path) as RefcntValue | Refcnt2Value;
    const old = v.ref.apply([owner]);
    const ref = updateMap(v.ref, [owner], by > 0 ? o.add(old, u64(1)) : o.sub(old, u64(1)));
    // +=: the slot is the old count; -=: the new count.
    const r = by > 0 ? old : ref.apply([owner]);
    const i = v.permInv.apply([owner, ...owned]);
    if (v.kind === 'refcnt') {
      const y = v.perm.apply([owner, r]);
      let perm = updateMap(v.perm, [owner, r], owned[0]);
      let permInv = updateMap(v.permInv, [owner, owned[0]], r);
      perm = updateMap(perm, [owner, i], y);
      permInv = updateMap(permInv, [owner, y], i);
      return this.with(path, { kind: 'refcnt', ref, perm, permInv });
    }
    const y1 = v.perm1.apply([owner, r]);
    const y2 = v.perm2.apply([owner, r]);
    let perm1 = updateMap(v.perm1, [owner, r], owned[0]);
    let perm2 = updateMap(v.perm2, [owner, r], owned[1]);
    let permInv = updateMap(v.permInv, [owner, owned[0], owned[1]], r);
    perm1 = updateMap(perm1, [owner, i], y1);
    perm2 = updateMap(perm2, [owner, i], y2);
    permInv = updateMap(permInv, [owner, y1, y2], i);
    return this.with(path, { kind: 'refcnt2', ref, perm1, perm2, permInv });
  }

  /** `util.If(cond, this, old)`: field by field (kernel/state.ts, `iteField`). */
  commit(cond: Term, old: AbstractState): AbstractState {
    if (cond.op === 'const') return cond.value ? this.s : old;
    return new Map([...this.s].map(([path, v]) => [path, iteField(v, old.get(path)!, (x, y) => iteMap(cond, x, y))]));
  }
}

export { o };
