/**
 * The kernel-state object model of the dialect (docs/hv6-model.md §4.3-4.7):
 * `KernelState` (scalars plus nine structs), `Struct` views with an index
 * path, `Accessor`s (partial applications of a map) and Refcnt accessors.
 *
 * Layout: a KernelStateObj owns one mutable table of scalar maps and one
 * StructObj per struct; a StructObj holds the struct's field table (name ->
 * MapFn or Refcnt value) and an index path. `s[i]` makes a new StructObj
 * that shares the field table, so a write through a view updates the state,
 * as upstream. The stored values themselves are immutable `MapFn`s: a write
 * replaces a table entry with a new map, so a copied or pre-state table is
 * never affected.
 */
import { type FieldSchema, SCALARS, STRUCTS, type StructSchema } from '../kernel/schema.ts';
import { type AbstractState, type FieldValue, isRefcnt } from '../kernel/state.ts';
import type { MapFn } from '../smt/fn.ts';
import { TRUE } from '../smt/ops.ts';
import { BOOL, type Sort, type Term, boolConst, bvConst, bvValue } from '../smt/term.ts';
import type { Span } from '../span.ts';
import { mustBeValue, sortPhrase } from './coerce.ts';
import { warn } from './warnings.ts';
import {
  SpecError,
  badArgument,
  closest,
  invalidWrite,
  iteOfPython,
  refcntMisuse,
  sortMismatch,
  tooFewIndices,
  tooManyIndices,
  typeError,
  unknownField,
} from './errors.ts';
import { type RawMap, bumpEpoch, constantMap, failingMap, iteMaps, lazyMap, rawConstantMap, writeMap, writeRawMap } from './maps.ts';
import { refcnt2Step, refcntStep } from './refcnt.ts';
import { Builtin, MapFnValue, type PyValue, describe, intOf, isTerm, typeName } from './values.ts';

/** How the object model calls back into the interpreter (whole-map lambdas run lazily). */
export interface FunctionCaller {
  /**
   * Calls a Python function value, possibly after the run has finished (a
   * lambda stored in the post-state is evaluated when the map is read).
   */
  callLazy(fn: PyValue, args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, span: Span): PyValue;
}

export class KernelStateObj {
  readonly kind = 'kstate';
  constructor(
    /** Scalar fields as arity-0 maps: current, iotlbinv, *_ptr_to_int. */
    readonly scalars: Map<string, MapFn>,
    /** The nine structs, each with an empty path. */
    readonly structs: Map<string, StructObj>,
  ) {}
}

/** A struct or a view of it; views made by indexing share `fields`. */
export class StructObj {
  readonly kind = 'struct';
  constructor(
    readonly schema: StructSchema,
    readonly fields: Map<string, FieldValue>,
    readonly path: readonly PyValue[],
  ) {}
}

/** A map field with fewer indices than its arity: call it with the rest to read. */
export class Accessor {
  readonly kind = 'accessor';
  constructor(
    readonly struct: StructObj,
    readonly field: FieldSchema,
    readonly path: readonly PyValue[],
  ) {}
}

/** A Refcnt or Refcnt2 field at a path: call to read the count, `[x] += 1` to update. */
export class RefcntAccessor {
  readonly kind = 'refcnt';
  constructor(
    readonly struct: StructObj,
    readonly field: FieldSchema,
    readonly path: readonly PyValue[],
  ) {}
}

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
  if (scalar) return scalar.apply([]);
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

// Where each field was last written (1-based spec line), for the duration of
// one runSpec: a counterexample links a differing field to this line.
let writeLog: Map<string, number> | undefined;

/** Runs `fn`, collecting the last line that wrote each field path. */
export function recordingWrites<T>(fn: () => T): { result: T; writes: Map<string, number> } {
  const outer = writeLog;
  const writes = new Map<string, number>();
  writeLog = writes;
  try {
    return { result: fn(), writes };
  } finally {
    writeLog = outer;
  }
}

function noteWrite(path: string, span: Span): void {
  writeLog?.set(path, span.line);
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
  return (s.fields.get(field.name) as MapFn).apply(args);
}

// ------------------------------------------------------------------ Refcnt

/** `o.nr_pages()` / `procs.nr_pages(o)` / `files[fn].refcnt()`: the count of the owner. */
export function callRefcnt(acc: RefcntAccessor, args: readonly PyValue[], span: Span): PyValue {
  const path = [...acc.path, ...args];
  if (path.length > 1) throw tooManyIndices(span, `${acc.field.path}()`, 1, path.length);
  if (path.length < 1) throw tooFewIndices(span, `${acc.field.path}()`, 1, 0);
  const v = acc.struct.fields.get(acc.field.name)!;
  if (!isRefcnt(v)) throw new Error(`${acc.field.path} is not a Refcnt`);
  return v.ref.apply([coerceIndex(path[0], acc.field, 0, span)]);
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
  const one = delta === 1n || (isTerm(delta) && bvValue(delta) === 1n);
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

function coerceOwned(v: PyValue, sort: Sort, field: FieldSchema, span: Span): Term {
  mustBeValue(v, span);
  if (isTerm(v)) {
    if (v.sort !== sort) {
      throw sortMismatch(span, `the object owned through ${field.path} must be a ${sortPhrase(sort)}, got ${describe(v)}`);
    }
    return v;
  }
  if (typeof v === 'bigint' || typeof v === 'boolean') return termOfInt(intOf(v), sort);
  throw typeError(span, `the object owned through ${field.path} must be a bit-vector or int, got ${describe(v)}`);
}

// ------------------------------------------------------------------ writes

function isCallable(v: PyValue): boolean {
  return typeof v === 'object' && v !== null && !isTerm(v) && (v.kind === 'function' || v.kind === 'builtin' || v.kind === 'mapfn');
}

/** Index `i` of `field`, as a term of its sort (Python ints become BitVecVals). */
function coerceIndex(v: PyValue, field: FieldSchema, i: number, span: Span): Term {
  mustBeValue(v, span);
  const sort = field.index[i];
  if (isTerm(v)) {
    if (v.sort !== sort) {
      throw sortMismatch(
        span,
        `index ${i + 1} of ${field.path} must be a ${sortPhrase(sort)}, got ${describe(v)}`,
        'use ZeroExt, SignExt or Extract to change the width',
      );
    }
    return v;
  }
  if (typeof v === 'bigint' || typeof v === 'boolean') return termOfInt(intOf(v), sort);
  const hint =
    typeof v === 'object' && v !== null && v.kind === 'tuple'
      ? `index one position at a time, e.g. old.procs[pid].ofile(fd)`
      : undefined;
  throw typeError(span, `index ${i + 1} of ${field.path} must be a bit-vector or int, got ${describe(v)}`, hint);
}

function termOfInt(v: bigint, sort: Sort): Term {
  return bvConst(v, sort);
}

/**
 * Checks a value written into `field`: a term of the field's sort, or a raw
 * Python int (bit-vector fields) or bool (Bool fields), kept raw.
 */
function fieldValue(value: PyValue, field: FieldSchema, span: Span): Term | bigint | boolean {
  const range = field.value;
  if (isTerm(value)) {
    if (value.sort !== range) {
      throw sortMismatch(span, `${field.path} holds ${sortPhrase(range)} values but ${describe(value)} was written`);
    }
    return value;
  }
  if (typeof value === 'bigint') {
    if (range === BOOL) throw sortMismatch(span, `${field.path} holds Bool values but ${describe(value)} was written`);
    return value;
  }
  if (typeof value === 'boolean') {
    if (range !== BOOL) {
      throw sortMismatch(span, `${field.path} holds ${sortPhrase(range)} values but ${describe(value)} was written`);
    }
    return value;
  }
  mustBeValue(value, span);
  throw typeError(span, `cannot write ${describe(value)} into ${field.path}`);
}

function writeField(s: StructObj, field: FieldSchema, path: readonly PyValue[], value: PyValue, span: Span, caller: FunctionCaller): void {
  bumpEpoch();
  noteWrite(field.path, span);
  if (field.kind !== 'map') {
    throw invalidWrite(
      span,
      `cannot assign to the Refcnt field ${field.path}`,
      'a Refcnt changes only with += 1 or -= 1 on an owned object, e.g. new.procs[pid].nr_pages[pn] += 1',
    );
  }
  const n = field.index.length;
  if (path.length > n) throw tooManyIndices(span, field.path, n, path.length);
  const old = s.fields.get(field.name) as MapFn;
  if (isCallable(value)) {
    if (path.length !== 0) {
      throw invalidWrite(
        span,
        `a function can only be assigned to the whole map ${field.path}`,
        `write new.${field.path} = lambda ${indexNames(field)}, oldfn: ...`,
      );
    }
    s.fields.set(field.name, lambdaField(field, old, value, span, caller));
    return;
  }
  let v: Term | bigint | boolean;
  let prefix: Term[];
  try {
    v = fieldValue(value, field, span);
    prefix = path.map((p, i) => coerceIndex(p, field, i, span));
  } catch (e) {
    if (!failsOnRead(e)) throw e;
    s.fields.set(field.name, failingField(old.domain, field, span, e));
    return;
  }
  if (typeof v === 'object') {
    s.fields.set(field.name, writeMap(old, prefix, v));
    return;
  }
  const t = typeof v === 'boolean' ? 'bool' : 'int';
  const raw: RawMap =
    prefix.length === 0
      ? rawConstantMap(old.domain, old.range, v)
      : writeRawMap(old, prefix, v, () =>
          iteOfPython(span, t, `${field.path} was written a plain Python ${t} here and is read at an index that may differ`),
        );
  s.fields.set(field.name, raw);
}

/**
 * A wrong width or sort in a write (SPEC011): upstream's util.partial_update
 * stores a closure that raises only when the field is read (its z3.If or
 * index comparison meets the other sort), so the error is deferred to the
 * first read here too. If nothing reads the field (a ghost field), the spec
 * runs on and runSpec reports SPEC204 instead.
 */
function failsOnRead(e: unknown): e is SpecError {
  return e instanceof SpecError && e.code === 'SPEC011';
}

/** The field after a write that raises `e` when read: every read throws a copy of it. */
function failingField(domain: readonly Sort[], field: FieldSchema, span: Span, e: SpecError): MapFn {
  return failingMap(domain, field.value, () => {
    const again = new SpecError(e.code, e.message, e.span, e.notes);
    again.trace.push(`raised when ${field.path} is read (written at line ${span.line})`);
    return again;
  });
}

function indexNames(field: FieldSchema): string {
  const names: Record<string, string[]> = { procs: ['pid', 'fd'], pages: ['pn', 'idx'], files: ['fn'] };
  const base = names[field.struct ?? ''] ?? ['i', 'j'];
  return field.index.map((_, i) => base[i] ?? `i${i}`).join(', ');
}

/** A whole-map lambda: evaluated lazily, with `oldfn` the map before this write. */
function lambdaField(field: FieldSchema, old: MapFn, fn: PyValue, span: Span, caller: FunctionCaller): MapFn {
  const n = field.index.length;
  let kwargs: ReadonlyMap<string, PyValue> | undefined;
  if (typeof fn === 'object' && fn !== null && !isTerm(fn) && fn.kind === 'function') {
    // Upstream calls the stored lambda with the indices and oldfn=... at every
    // read, so a lambda of the wrong shape raises then, never at the write.
    const ps = fn.params;
    const star = ps.some((p) => p.star);
    const positional = ps.filter((p) => !p.star && p.name !== 'oldfn' && p.default === undefined).length;
    const fnSpan = fn.node.span;
    if (!ps.some((p) => p.name === 'oldfn')) {
      const e = badArgument(
        fnSpan,
        `the function assigned to ${field.path} must take the keyword argument oldfn: lambda ${indexNames(field)}, oldfn: ...`,
      );
      return failingField(old.domain, field, span, e);
    }
    if (!star && positional !== n) {
      const e = badArgument(fnSpan, `the function assigned to ${field.path} must take ${n} ${n === 1 ? 'index' : 'indices'} and oldfn, but takes ${positional}`);
      return failingField(old.domain, field, span, e);
    }
    kwargs = new Map([['oldfn', new MapFnValue(old, `oldfn of ${field.path}`)]]);
  }
  const at = typeof fn === 'object' && fn !== null && !isTerm(fn) && fn.kind === 'function' ? fn.node.span : span;
  return lazyMap(old.domain, old.range, (args) => {
    let r: PyValue;
    try {
      r = caller.callLazy(fn, [...args], kwargs, span);
    } catch (e) {
      if (e instanceof SpecError && !e.trace.some((t) => t.startsWith('evaluated lazily'))) {
        e.trace.push(`evaluated lazily, when ${field.path} is read (assigned at line ${span.line})`);
      }
      throw e;
    }
    if (isTerm(r)) {
      if (r.sort !== field.value) {
        throw sortMismatch(at, `the function assigned to ${field.path} returned ${describe(r)}; the field holds ${sortPhrase(field.value)} values`);
      }
      return r;
    }
    if ((typeof r === 'bigint' && field.value !== BOOL) || (typeof r === 'boolean' && field.value === BOOL)) {
      return field.value === BOOL ? boolConst(r as boolean) : bvConst(r as bigint, field.value);
    }
    throw typeError(at, `the function assigned to ${field.path} returned ${describe(r)}; the field holds ${sortPhrase(field.value)} values`);
  });
}

// ------------------------------------------------------------------ util.If on states

/**
 * util.If on two KernelStates or two structs of one class: a new object
 * whose fields are the pointwise If (docs/hv6-model.md §4.7). The caller handles the
 * literal-condition and same-object cases (which return a branch itself).
 */
export function iteObjects(c: Term, a: KernelStateObj | StructObj, b: PyValue, span: Span): KernelStateObj | StructObj {
  if (a.kind === 'kstate') {
    if (typeof b !== 'object' || b === null || isTerm(b) || b.kind !== 'kstate') {
      throw typeError(span, `util.If branches differ in type: KernelState and ${typeName(b)}`);
    }
    const scalars = new Map<string, MapFn>();
    for (const [name, f] of a.scalars) {
      scalars.set(name, iteMaps(c, f, b.scalars.get(name)!, () => rawError(span, name, f)));
    }
    const structs = new Map<string, StructObj>();
    for (const [name, s] of a.structs) structs.set(name, iteStruct(c, s, b.structs.get(name)!, span));
    return new KernelStateObj(scalars, structs);
  }
  if (typeof b !== 'object' || b === null || isTerm(b) || b.kind !== 'struct' || b.schema !== a.schema) {
    throw typeError(span, `util.If branches differ in type: ${a.schema.className} and ${typeName(b)}`);
  }
  return iteStruct(c, a, b, span);
}

function rawError(span: Span, path: string, f: MapFn): ReturnType<typeof iteOfPython> {
  const t = typeof (f as RawMap).raw === 'boolean' ? 'bool' : 'int';
  return iteOfPython(span, t, `${path} holds a plain Python ${t} in the first branch`);
}

function iteStruct(c: Term, a: StructObj, b: StructObj, span: Span): StructObj {
  const fields = new Map<string, FieldValue>();
  for (const [name, fa] of a.fields) {
    const fb = b.fields.get(name)!;
    const path = `${a.schema.name}.${name}`;
    fields.set(name, iteFieldValue(c, fa, fb, (f) => () => rawError(span, path, f)));
  }
  return new StructObj(a.schema, fields, a.path);
}

function iteFieldValue(c: Term, a: FieldValue, b: FieldValue, onRaw: (f: MapFn) => () => ReturnType<typeof iteOfPython>): FieldValue {
  if (a === b) return a;
  const m = (x: MapFn, y: MapFn) => iteMaps(c, x, y, onRaw(x));
  if (!isRefcnt(a) && !isRefcnt(b)) return m(a, b);
  if (isRefcnt(a) && isRefcnt(b) && a.kind === 'refcnt' && b.kind === 'refcnt') {
    return { kind: 'refcnt', ref: m(a.ref, b.ref), perm: m(a.perm, b.perm), permInv: m(a.permInv, b.permInv) };
  }
  if (isRefcnt(a) && isRefcnt(b) && a.kind === 'refcnt2' && b.kind === 'refcnt2') {
    return {
      kind: 'refcnt2',
      ref: m(a.ref, b.ref),
      perm1: m(a.perm1, b.perm1),
      perm2: m(a.perm2, b.perm2),
      permInv: m(a.permInv, b.permInv),
    };
  }
  throw new Error('If: field kinds differ');
}
