/**
 * The abstract kernel state as a value: one entry per field of the schema.
 * A plain map field (scalars included, as arity-0 maps) is a `MapFn`; a
 * Refcnt field is its count plus the two ghost permutation functions
 * (docs/hv6-model.md §4.6).
 */
import { type MapFn, ufMap } from '../smt/fn.ts';
import type { Term } from '../smt/term.ts';
import { ALL_FIELDS, type FieldSchema } from './schema.ts';

/** Refcnt(Owner, Owned, size_t). */
export interface RefcntValue {
  readonly kind: 'refcnt';
  /** owner -> count */
  readonly ref: MapFn;
  /** (owner, slot) -> owned object */
  readonly perm: MapFn;
  /** (owner, owned object) -> slot */
  readonly permInv: MapFn;
}

/** Refcnt2(Owner, (O1, O2), size_t). */
export interface Refcnt2Value {
  readonly kind: 'refcnt2';
  readonly ref: MapFn;
  /** (owner, slot) -> first component */
  readonly perm1: MapFn;
  /** (owner, slot) -> second component */
  readonly perm2: MapFn;
  /** (owner, o1, o2) -> slot */
  readonly permInv: MapFn;
}

export type FieldValue = MapFn | RefcntValue | Refcnt2Value;

/** A kernel state: field path -> value. Treat as immutable. */
export type AbstractState = ReadonlyMap<string, FieldValue>;

export function isRefcnt(v: FieldValue): v is RefcntValue | Refcnt2Value {
  return 'kind' in v;
}

const SIZE_T = 64;

/** A fresh, unconstrained value for one field; symbols are named `${prefix}${path}`. */
export function freshField(schema: FieldSchema, prefix: string): FieldValue {
  const n = `${prefix}${schema.path}`;
  switch (schema.kind) {
    case 'map':
      return ufMap(n, schema.index, schema.value);
    case 'refcnt': {
      const [owner] = schema.index;
      const [owned] = schema.owned!;
      return {
        kind: 'refcnt',
        ref: ufMap(n, [owner], SIZE_T),
        perm: ufMap(`${n}.perm`, [owner, SIZE_T], owned),
        permInv: ufMap(`${n}.perm_inv`, [owner, owned], SIZE_T),
      };
    }
    case 'refcnt2': {
      const [owner] = schema.index;
      const [o1, o2] = schema.owned!;
      return {
        kind: 'refcnt2',
        ref: ufMap(n, [owner], SIZE_T),
        perm1: ufMap(`${n}.perm1`, [owner, SIZE_T], o1),
        perm2: ufMap(`${n}.perm2`, [owner, SIZE_T], o2),
        permInv: ufMap(`${n}.perm_inv`, [owner, o1, o2], SIZE_T),
      };
    }
  }
}

/** Returns a new state in which every field is a fresh symbol. */
export function freshState(prefix = 'old.'): AbstractState {
  return new Map(ALL_FIELDS.map((s) => [s.path, freshField(s, prefix)]));
}

/** The count component of a field (the field itself for a plain map). */
export function countOf(v: FieldValue): MapFn {
  return isRefcnt(v) ? v.ref : v;
}

/**
 * Every map of a field with the suffix that names it (the suffix `freshField`
 * gives its symbol): a plain map itself (''); a Refcnt's count first (''),
 * then its ghost permutations ('.perm', '.perm_inv'; Refcnt2 '.perm1',
 * '.perm2', '.perm_inv').
 */
export function fieldParts(v: FieldValue): { readonly suffix: string; readonly map: MapFn }[] {
  if (!isRefcnt(v)) return [{ suffix: '', map: v }];
  if (v.kind === 'refcnt') return [{ suffix: '', map: v.ref }, { suffix: '.perm', map: v.perm }, { suffix: '.perm_inv', map: v.permInv }];
  return [{ suffix: '', map: v.ref }, { suffix: '.perm1', map: v.perm1 }, { suffix: '.perm2', map: v.perm2 }, { suffix: '.perm_inv', map: v.permInv }];
}

/** A field of `like`'s kind made of `maps`, in `fieldParts` order. */
export function fieldFromParts(like: FieldValue, maps: readonly MapFn[]): FieldValue {
  if (!isRefcnt(like)) return maps[0];
  if (like.kind === 'refcnt') return { kind: 'refcnt', ref: maps[0], perm: maps[1], permInv: maps[2] };
  return { kind: 'refcnt2', ref: maps[0], perm1: maps[1], perm2: maps[2], permInv: maps[3] };
}

/**
 * The pointwise If of two values of one field: a value of their kind whose
 * every map is `ite` of the two fields' maps (`fieldParts` order): a plain
 * map's If, a Refcnt's componentwise. The same value twice is itself.
 */
export function iteField(a: FieldValue, b: FieldValue, ite: (x: MapFn, y: MapFn) => MapFn): FieldValue {
  if (a === b) return a;
  const pa = fieldParts(a);
  const pb = fieldParts(b);
  if (pa.length !== pb.length || pa.some((p, i) => p.suffix !== pb[i].suffix)) throw new Error('If: field kinds differ');
  return fieldFromParts(a, pa.map((p, i) => ite(p.map, pb[i].map)));
}

/** Every map of a field: a plain map itself; a Refcnt's count first, then its ghost permutations. */
export function fieldMaps(v: FieldValue): MapFn[] {
  return fieldParts(v).map((p) => p.map);
}
