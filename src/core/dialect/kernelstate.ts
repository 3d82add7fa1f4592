/**
 * What a spec does with the kernel state (docs/hv6-model.md §4.3-4.7; the
 * objects are in objects.ts): conversion from and to an AbstractState,
 * copies, attribute reads and writes of the `KernelState` and its `Struct`
 * views, `Accessor` calls and indexing, Refcnt counts and updates.
 */
import { type FieldSchema, SCALARS, STRUCTS } from '../kernel/schema.ts';
import { type AbstractState, type FieldValue, isRefcnt } from '../kernel/state.ts';
import type { MapFn } from '../smt/fn.ts';
import { TRUE } from '../smt/ops.ts';
import { type Term, bvValue } from '../smt/term.ts';
import type { Span } from '../span.ts';
import { badArgument, closest, invalidWrite, refcntMisuse, tooFewIndices, tooManyIndices, unknownField } from './errors.ts';
import { coerceIndex, coerceOwned, failsOnRead, fieldValue, isCallable, noteWrite, writeField } from './field-write.ts';
import { type FunctionCaller, failingField } from './lambda-field.ts';
import { bumpEpoch, constantMap, rawConstantMap, writeMap } from './maps.ts';
import { Accessor, Builtin, KernelStateObj, type PyValue, RefcntAccessor, StructObj } from './objects.ts';
import { refcnt2Step, refcntStep } from './refcnt.ts';
import { describe, expr, intOf, isPyInt, isTerm } from './values.ts';
import { warn } from './warnings.ts';

const SCALAR_BY_NAME = new Map(SCALARS.map((f) => [f.name, f]));
const STRUCT_BY_NAME = new Map(STRUCTS.map((s) => [s.name, s]));
const FIELD_BY_STRUCT = new Map(STRUCTS.map((s) => [s.name, new Map(s.fields.map((f) => [f.name, f]))]));
const STATE_METHODS = ['copy', 'flush_tlb', 'flush_iotlb'];

// ------------------------------------------------------------------ conversion

/** A KernelStateObj over the values of `pre` (shared, not copied: they are immutable). */
export function fromAbstract(pre: AbstractState): KernelStateObj {
  const scalars = new Map<string, MapFn>();
  for (const f of SCALARS) {
    const v = pre.get(f.path);
    if (!v || isRefcnt(v)) throw new Error(`abstract state lacks scalar field ${f.path}`);
    scalars.set(f.name, v);
  }
  const structs = new Map<string, StructObj>();
  for (const s of STRUCTS) {
    const fields = new Map<string, FieldValue>();
    for (const f of s.fields) {
      const v = pre.get(f.path);
      if (!v) throw new Error(`abstract state lacks field ${f.path}`);
      fields.set(f.name, v);
    }
    structs.set(s.name, new StructObj(s, fields, []));
  }
  return new KernelStateObj(scalars, structs);
}

/** Returns a new AbstractState with the current values of `ks`. */
export function toAbstract(ks: KernelStateObj): AbstractState {
  const out = new Map<string, FieldValue>();
  for (const [name, v] of ks.scalars) out.set(name, v);
  for (const [sname, s] of ks.structs) for (const [fname, v] of s.fields) out.set(`${sname}.${fname}`, v);
  return out;
}

/** `s.copy()`: a deep copy; later writes to either never affect the other. */
export function copyState(ks: KernelStateObj): KernelStateObj {
  const structs = new Map<string, StructObj>();
  for (const [name, s] of ks.structs) structs.set(name, new StructObj(s.schema, new Map(s.fields), []));
  return new KernelStateObj(new Map(ks.scalars), structs);
}

// ------------------------------------------------------------------ KernelState attributes

export function stateAttr(ks: KernelStateObj, name: string, span: Span): PyValue {
  const scalar = ks.scalars.get(name);
  if (scalar) return expr(scalar.apply([]));
  const st = ks.structs.get(name);
  if (st) return st;
  switch (name) {
    case 'copy':
      return new Builtin('KernelState.copy', (args, _kw, site) => {
        if (args.length) throw badArgument(site.span, `copy() takes no arguments but ${args.length} were given`);
        return copyState(ks);
      });
    case 'flush_tlb':
      return new Builtin('KernelState.flush_tlb', (args, _kw, site) => {
        if (args.length !== 1) throw badArgument(site.span, `flush_tlb() takes 1 argument (pid) but ${args.length} were given`);
        bumpEpoch();
        const procs = ks.structs.get('procs')!;
        const field = FIELD_BY_STRUCT.get('procs')!.get('tlbinv')!;
        const pid = coerceIndex(args[0], field, 0, site.argSpans[0] ?? site.span);
        procs.fields.set('tlbinv', writeMap(procs.fields.get('tlbinv') as MapFn, [pid], TRUE));
        return null;
      });
    case 'flush_iotlb':
      return new Builtin('KernelState.flush_iotlb', (args, _kw, site) => {
        if (args.length) throw badArgument(site.span, `flush_iotlb() takes no arguments but ${args.length} were given`);
        bumpEpoch();
        ks.scalars.set('iotlbinv', constantMap([], TRUE));
        return null;
      });
  }
  const all = [...ks.scalars.keys(), ...ks.structs.keys(), ...STATE_METHODS];
  throw unknownField(span, 'KernelState', name, closest(name, all));
}

export function setStateAttr(ks: KernelStateObj, name: string, value: PyValue, span: Span): void {
  bumpEpoch();
  const field = SCALAR_BY_NAME.get(name);
  if (!field) {
    if (STRUCT_BY_NAME.has(name)) {
      // hv6's Struct.__setattr__ stores the value in the instance dict, but
      // __getattribute__ answers sub-struct names from the struct table:
      // the assignment is shadowed and no read ever sees it.
      warn('SPEC202', span, `assigning to the struct '${name}' has no effect (as upstream: reads of ${name} still see the struct)`, [
        `write its fields instead, e.g. new.${name}[i].<field> = value`,
      ]);
      return;
    }
    if (STATE_METHODS.includes(name)) throw invalidWrite(span, `cannot assign to the method '${name}'`);
    const all = [...ks.scalars.keys(), ...ks.structs.keys()];
    throw unknownField(span, 'KernelState', name, closest(name, all));
  }
  if (isCallable(value)) throw invalidWrite(span, `${name} is a scalar: assign a value, not a function`);
  noteWrite(field.path, span);
  let v: Term | bigint | boolean;
  try {
    v = fieldValue(value, field, span);
  } catch (e) {
    if (!failsOnRead(e)) throw e;
    ks.scalars.set(name, failingField([], field, span, e));
    return;
  }
  ks.scalars.set(name, typeof v === 'object' ? constantMap([], v) : rawConstantMap([], field.value, v));
}

// ------------------------------------------------------------------ Struct views

/** `s[i]`: a view with `i` appended to the path, sharing the field table. */
export function indexStruct(s: StructObj, index: PyValue): StructObj {
  return new StructObj(s.schema, s.fields, [...s.path, index]);
}

function fieldOf(s: StructObj, name: string, span: Span): FieldSchema {
  const f = FIELD_BY_STRUCT.get(s.schema.name)!.get(name);
  if (f) return f;
  throw unknownField(span, s.schema.className, name, closest(name, FIELD_BY_STRUCT.get(s.schema.name)!.keys()));
}

/** Reading `s.name`: the value with a full path, an Accessor with a shorter one. */
export function structAttr(s: StructObj, name: string, span: Span): PyValue {
  const field = fieldOf(s, name, span);
  if (field.kind !== 'map') {
    if (s.path.length > 1) throw tooManyIndices(span, field.path, 1, s.path.length);
    return new RefcntAccessor(s, field, s.path);
  }
  return readPath(s, field, s.path, span);
}

/** `s.name = value` on a struct view (point, broadcast or whole-map lambda write). */
export function setStructAttr(s: StructObj, name: string, value: PyValue, span: Span, caller: FunctionCaller): void {
  writeField(s, fieldOf(s, name, span), s.path, value, span, caller);
}

// ------------------------------------------------------------------ Accessors

/** Calling an Accessor with the remaining indices reads the value. */
export function callAccessor(acc: Accessor, args: readonly PyValue[], span: Span): PyValue {
  const path = [...acc.path, ...args];
  const n = acc.field.index.length;
  if (path.length < n) throw tooFewIndices(span, acc.field.path, n, path.length);
  return readPath(acc.struct, acc.field, path, span);
}

/** `acc[i]` extends the path; it is not a read (docs/hv6-model.md §4.4). */
export function indexAccessor(acc: Accessor, index: PyValue, span: Span): Accessor {
  const path = [...acc.path, index];
  if (path.length > acc.field.index.length) throw tooManyIndices(span, acc.field.path, acc.field.index.length, path.length);
  return new Accessor(acc.struct, acc.field, path);
}

/** `acc[i] = value`: a write through the path extended by `i`. */
export function setAccessorItem(acc: Accessor, index: PyValue, value: PyValue, span: Span, caller: FunctionCaller): void {
  writeField(acc.struct, acc.field, [...acc.path, index], value, span, caller);
}

function readPath(s: StructObj, field: FieldSchema, path: readonly PyValue[], span: Span): PyValue {
  const n = field.index.length;
  if (path.length > n) throw tooManyIndices(span, field.path, n, path.length);
  if (path.length < n) return new Accessor(s, field, path);
  const args = path.map((p, i) => coerceIndex(p, field, i, span));
  return expr((s.fields.get(field.name) as MapFn).apply(args));
}

// ------------------------------------------------------------------ Refcnt

/** `o.nr_pages()` / `procs.nr_pages(o)` / `files[fn].refcnt()`: the count of the owner. */
export function callRefcnt(acc: RefcntAccessor, args: readonly PyValue[], span: Span): PyValue {
  const path = [...acc.path, ...args];
  if (path.length > 1) throw tooManyIndices(span, `${acc.field.path}()`, 1, path.length);
  if (path.length < 1) throw tooFewIndices(span, `${acc.field.path}()`, 1, 0);
  const v = acc.struct.fields.get(acc.field.name)!;
  if (!isRefcnt(v)) throw new Error(`${acc.field.path} is not a Refcnt`);
  return expr(v.ref.apply([coerceIndex(path[0], acc.field, 0, span)]));
}

export function indexRefcnt(acc: RefcntAccessor, index: PyValue, span: Span): RefcntAccessor {
  const path = [...acc.path, index];
  if (path.length > 2) throw tooManyIndices(span, acc.field.path, 2, path.length);
  return new RefcntAccessor(acc.struct, acc.field, path);
}

/**
 * `acc[item] += 1` / `-= 1`: the ghost-permutation update of docs/hv6-model.md §4.6.
 * `acc` must hold the owner; `item` is the owned object (a (pid, fd) tuple
 * for Refcnt2).
 */
export function refcntUpdate(acc: RefcntAccessor, item: PyValue, op: string, delta: PyValue, span: Span): void {
  bumpEpoch();
  const field = acc.field;
  noteWrite(field.path, span);
  const form =
    field.kind === 'refcnt2' ? `new.${field.path.replace('.', '[fn].')}[(pid, fd)] += 1` : `new.${field.path.replace('.', '[owner].')}[obj] += 1`;
  if (op !== '+' && op !== '-') {
    throw refcntMisuse(span, `a Refcnt field changes only with += 1 or -= 1, not ${op}=`, `write ${form}`);
  }
  const one = (isPyInt(delta) && typeof delta !== 'boolean' && intOf(delta) === 1n) || (isTerm(delta) && bvValue(delta.term) === 1n);
  if (!one) throw refcntMisuse(span, `a Refcnt field changes by exactly 1, not by ${describe(delta)}`, `write ${form}`);
  if (acc.path.length !== 1) {
    throw refcntMisuse(span, `${field.path} ${op}= 1 needs the owner and the owned object`, `write ${form}`);
  }
  const o = coerceIndex(acc.path[0], field, 0, span);
  const d = op === '+' ? 1 : -1;
  const v = acc.struct.fields.get(field.name)!;
  if (v === undefined || !isRefcnt(v)) throw new Error(`${field.path} is not a Refcnt`);
  if (v.kind === 'refcnt') {
    const x = coerceOwned(item, field.owned![0], field, span);
    acc.struct.fields.set(field.name, refcntStep(v, o, x, d));
    return;
  }
  if (!(typeof item === 'object' && item !== null && !isTerm(item) && item.kind === 'tuple' && item.items.length === 2)) {
    throw refcntMisuse(span, `the object owned through ${field.path} must be a tuple (pid, fd), got ${describe(item)}`, `write ${form}`);
  }
  const x1 = coerceOwned(item.items[0], field.owned![0], field, span);
  const x2 = coerceOwned(item.items[1], field.owned![1], field, span);
  acc.struct.fields.set(field.name, refcnt2Step(v, o, x1, x2, d));
}

