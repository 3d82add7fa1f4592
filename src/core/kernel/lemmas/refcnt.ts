/**
 * The correctness conditions of a Refcnt or Refcnt2 (docs/hv6-model.md §4.6, `check`).
 *
 * A Refcnt keeps a count `ref(o)` and a ghost permutation: `perm(o, slot)`
 * is the object in a slot and `permInv(o, x)` the slot of an object. The
 * conditions say that the objects `o` owns are exactly those in slots
 * 0 .. ref(o)-1, so `ref(o)` counts them. A Refcnt2 owns pairs, with one
 * permutation per component.
 *
 * Upstream states "perm and permInv are inverse" as one fact over
 * (owner, object, slot); here it is two facts, one over (owner, slot) and
 * one over (owner, object), which is equivalent because some valid object
 * and some slot below max_refs always exist. Two variables per fact keep
 * every variable reachable from one trigger.
 */
import * as o from '../../smt/ops.ts';
import { type Term, bvConst } from '../../smt/term.ts';
import type { PairTrigger, Quantified, Trigger } from '../../smt/quantified.ts';
import type { AbstractState } from '../state.ts';
import { type Domain, type Fact, derived, fact, on, refcnt2Of, refcntOf, seedTrigger } from './helpers.ts';

// The permutation facts chain (a slot's object, that object's slot, ...): they
// may fire two rounds deep. The owner view fires only at the goal's own terms.
const CHAIN = 2;
const OWNER_VIEW = 0;

const SIZE_T = 64;

/** Who owns an object: a function of the object, or a relation. */
export type Ownership =
  | {
      /** The owner of the object `xs` (one term per component). */
      readonly ownerfn: (xs: readonly Term[]) => Term;
      /** Triggers binding the object's components from the maps `ownerfn` reads. */
      readonly triggers: readonly Trigger[];
    }
  | {
      /** Does `o` own `xs`? */
      readonly ownedby: (owner: Term, xs: readonly Term[]) => Term;
      /** Triggers binding (owner, components...) from the maps `ownedby` reads. */
      readonly triggers: readonly Trigger[];
    };

export interface RefcntCheck {
  /** Prefix of the fact names, e.g. "nr_pages". */
  readonly name: string;
  /** The Refcnt field, e.g. "procs.nr_pages". */
  readonly path: string;
  readonly isOwnerValid: (owner: Term) => Term;
  /** One validity predicate per component of the owned object. */
  readonly isOwnedValid: readonly ((x: Term) => Term)[];
  readonly maxRefs: bigint;
  readonly ownership: Ownership;
  /**
   * Reads that name an object of interest (default: the ownership triggers),
   * paired with every count's owner for the slot facts (see PairTrigger).
   */
  readonly objects?: readonly Trigger[];
}

/** The uniform view of a Refcnt (one component) or a Refcnt2 (two). */
interface Perm {
  readonly ownerSort: number;
  readonly ownedSorts: readonly number[];
  ref(owner: Term): Term;
  /** The object in a slot, one term per component. */
  at(owner: Term, slot: Term): Term[];
  slotOf(owner: Term, xs: readonly Term[]): Term;
  triggers: { ref: Trigger[]; at: Trigger[]; slotOf: Trigger[]; owner: Trigger[] };
}

function permOf(s: AbstractState, path: string, arity: number): Perm {
  if (arity === 1) {
    const r = refcntOf(s, path);
    return {
      ownerSort: r.ref.domain[0],
      ownedSorts: [r.permInv.domain[1]],
      ref: (x) => r.ref.apply([x]),
      at: (x, n) => [r.perm.apply([x, n])],
      slotOf: (x, xs) => r.permInv.apply([x, ...xs]),
      triggers: {
        ref: on(r.ref, [0]),
        at: on(r.perm, [0, 1]),
        slotOf: on(r.permInv, [0, 1]),
        owner: on(r.ref, [0]),
      },
    };
  }
  const r = refcnt2Of(s, path);
  return {
    ownerSort: r.ref.domain[0],
    ownedSorts: [r.permInv.domain[1], r.permInv.domain[2]],
    ref: (x) => r.ref.apply([x]),
    at: (x, n) => [r.perm1.apply([x, n]), r.perm2.apply([x, n])],
    slotOf: (x, xs) => r.permInv.apply([x, ...xs]),
    triggers: {
      ref: on(r.ref, [0]),
      at: [...on(r.perm1, [0, 1]), ...on(r.perm2, [0, 1])],
      slotOf: on(r.permInv, [0, 1, 2]),
      owner: on(r.ref, [0]),
    },
  };
}

/**
 * The conditions 1-6 (and Refcnt2's valid-slot condition) for the Refcnt at
 * `check.path` of state `s`. With `ownerfn`, one derived fact is added: the
 * object-indexed conditions at the object's own owner, which lets an
 * assumption fire from a read of the owner map alone.
 */
export function refcntFacts(s: AbstractState, check: RefcntCheck): Quantified[] {
  const k = check.isOwnedValid.length;
  const p = permOf(s, check.path, k);
  const max = bvConst(check.maxRefs, SIZE_T);
  const zero = bvConst(0, SIZE_T);
  const n = check.name;

  const dOwned: Domain = { key: `${check.path}:owner,owned`, sorts: [p.ownerSort, ...p.ownedSorts] };
  const dSlot: Domain = { key: `${check.path}:owner,slot`, sorts: [p.ownerSort, SIZE_T] };
  const dOwner: Domain = { key: `${check.path}:owner`, sorts: [p.ownerSort] };

  const validObj = (xs: readonly Term[]) => o.and(...xs.map((x, i) => check.isOwnedValid[i](x)));
  const own = check.ownership;
  const owns = (owner: Term, xs: readonly Term[]) =>
    'ownerfn' in own ? o.eq(own.ownerfn(xs), owner) : own.ownedby(owner, xs);
  const split = (vs: readonly Term[]) => [vs[0], vs.slice(1)] as const;
  const objTriggers = [...p.triggers.slotOf, ...('ownedby' in own ? own.triggers : [])];

  // The object-indexed conditions at (owner, xs), as used by facts 1, 2, 3, 5, 6.
  const slotBound = (ow: Term, xs: readonly Term[]) => o.ult(p.slotOf(ow, xs), max);
  const inverseOwned = (ow: Term, xs: readonly Term[]) => {
    const back = p.at(ow, p.slotOf(ow, xs));
    return o.and(...back.map((b, i) => o.eq(b, xs[i])));
  };
  const slotsMatch = (ow: Term, xs: readonly Term[]) => {
    const has = owns(ow, xs);
    const slot = p.slotOf(ow, xs);
    return o.and(o.implies(has, o.ult(slot, p.ref(ow))), o.implies(o.not(has), o.uge(slot, p.ref(ow))));
  };
  const guardObj = (ow: Term, xs: readonly Term[]) => o.and(check.isOwnerValid(ow), validObj(xs));

  // With an owner function, the slot facts also fire for every (count's
  // owner, object) pair of the query (see PairTrigger).
  const pairs: PairTrigger | undefined =
    'ownerfn' in own ? { owner: p.triggers.ref, owned: check.objects ?? own.triggers } : undefined;
  const withPairs = (f: Fact): Fact => (pairs ? { ...f, pairs } : f);

  const facts: Quantified[] = [
    withPairs(
      fact(`${n}.slot_bound`, 'the slot of every valid object is below max_refs', dOwned, objTriggers, (vs) => {
        const [ow, xs] = split(vs);
        return o.implies(guardObj(ow, xs), slotBound(ow, xs));
      }, CHAIN),
    ),
    fact(`${n}.inverse_slot`, 'reading a slot below max_refs and looking the object up again gives the slot back', dSlot, p.triggers.at, ([ow, slot]) =>
      o.implies(o.and(check.isOwnerValid(ow), o.ult(slot, max)), o.eq(p.slotOf(ow, p.at(ow, slot)), slot)), CHAIN),
    fact(`${n}.inverse_owned`, 'looking up the slot of a valid object and reading it gives the object back', dOwned, objTriggers, (vs) => {
      const [ow, xs] = split(vs);
      return o.implies(guardObj(ow, xs), inverseOwned(ow, xs));
    }, CHAIN),
    withPairs(
      fact(`${n}.slots_match_ownership`, 'an owned object sits below the count, an object not owned at or above it', dOwned, objTriggers, (vs) => {
        const [ow, xs] = split(vs);
        return o.implies(guardObj(ow, xs), slotsMatch(ow, xs));
      }, CHAIN),
    ),
    fact(`${n}.count_bound`, 'the count never exceeds max_refs', dOwner, p.triggers.owner, ([ow]) =>
      o.implies(check.isOwnerValid(ow), o.ule(p.ref(ow), max))),
    fact(`${n}.zero_owns_nothing`, 'an owner with count 0 owns no valid object', dOwned, objTriggers, (vs) => {
      const [ow, xs] = split(vs);
      return o.implies(o.and(guardObj(ow, xs), o.eq(p.ref(ow), zero)), o.not(owns(ow, xs)));
    }, CHAIN),
    fact(`${n}.max_owns_all`, 'an owner with count max_refs owns every valid object', dOwned, objTriggers, (vs) => {
      const [ow, xs] = split(vs);
      return o.implies(o.and(guardObj(ow, xs), o.eq(p.ref(ow), max)), owns(ow, xs));
    }, CHAIN),
  ];
  if (k === 2) {
    facts.push(
      fact(`${n}.slot_holds_valid_pair`, 'every slot below max_refs holds a valid pair', dSlot, p.triggers.at, ([ow, slot]) =>
        o.implies(o.and(check.isOwnerValid(ow), o.ult(slot, max)), validObj(p.at(ow, slot))), CHAIN),
    );
  }
  if ('ownerfn' in own) {
    // The same conditions with the owner variable replaced by the object's
    // owner (a one-point instance: equivalent, but triggered by the object alone).
    const seed = seedTrigger(dOwned);
    const objSeed: Trigger = { fn: seed.fn, positions: p.ownedSorts.map((_, i) => i + 1) };
    facts.push(
      derived({
        depth: OWNER_VIEW,
        name: `${n}.owner_view`,
        gloss: "the conditions at an object's own owner: it sits in a slot below that owner's nonzero count",
        vars: p.ownedSorts,
        triggers: [objSeed, ...own.triggers],
        body: (xs) => {
          const ow = own.ownerfn(xs);
          return o.implies(
            guardObj(ow, xs),
            o.and(slotBound(ow, xs), inverseOwned(ow, xs), slotsMatch(ow, xs), o.ule(p.ref(ow), max), o.not(o.eq(p.ref(ow), zero))),
          );
        },
      }),
    );
  }
  return facts;
}
