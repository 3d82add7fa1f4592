/**
 * The C memory model of docs/c-subset.md: one functional map per scalar
 * leaf of every global (`proc_table.state`, `pages`, ...), indexed by one
 * 64-bit term per array dimension on the way, plus the verifier flags
 * `#tlbinv` and `#iotlbinv`. Pointers are symbolic access paths into these
 * globals (a global, then array indices and struct members); a pointer that
 * depends on a branch is an `If` of paths.
 */
import { type MapFn, iteMap as rawIteMap, lambdaMap as rawLambdaMap, ufMap, updateMap as rawUpdateMap } from '../smt/fn.ts';
import * as o from '../smt/ops.ts';
import { BOOL, type Term, bvConst, isFalse, isTrue, variable } from '../smt/term.ts';
import { mapDepth, maxDepth, setMapDepth, termDepth } from './limits.ts';
import type { CProgram } from './program.ts';
import { type CType, type IntType, type StructMember, sameType, sizeOf, typeName } from './types.ts';

/** Memory: leaf key -> map. Treat as immutable; writes return a new one. */
export type CMemory = ReadonlyMap<string, MapFn>;

export const TLBINV = '#tlbinv';
export const IOTLBINV = '#iotlbinv';

/** One scalar leaf of the globals. */
export interface Leaf {
  readonly key: string;
  /** One 64-bit index per array dimension on the way to the leaf. */
  readonly dims: number;
  readonly type: IntType;
}

/** Every scalar leaf of every global of the program, in declaration order. */
export function memoryLeaves(program: CProgram): Leaf[] {
  const out: Leaf[] = [];
  for (const g of program.globals.values()) collectLeaves(g.type, g.name, 0, out);
  return out;
}

function collectLeaves(t: CType, key: string, dims: number, out: Leaf[]): void {
  switch (t.kind) {
    case 'int':
      out.push({ key, dims, type: t });
      return;
    case 'array':
      collectLeaves(t.of, key, dims + 1, out);
      return;
    case 'struct':
      for (const m of t.members) collectLeaves(m.type, m.name === undefined ? key : `${key}.${m.name}`, dims, out);
      return;
    default:
      return;
  }
}

/** The value sort of a leaf: the C type's width (`_Bool` is 8 bits). */
function leafSort(t: IntType): number {
  return t.width;
}

/**
 * A memory of unconstrained maps, one uninterpreted function per leaf named
 * `${prefix}${key}` (`c:proc_table.state`), plus `#tlbinv` (64 -> Bool) and
 * `#iotlbinv` (Bool).
 */
export function freshMemory(program: CProgram, prefix = 'c:'): CMemory {
  const m = new Map<string, MapFn>();
  for (const l of memoryLeaves(program)) {
    m.set(l.key, ufMap(`${prefix}${l.key}`, new Array(l.dims).fill(64), leafSort(l.type)));
  }
  m.set(TLBINV, ufMap(`${prefix}${TLBINV}`, [64], BOOL));
  m.set(IOTLBINV, ufMap(`${prefix}${IOTLBINV}`, [], BOOL));
  return m;
}

/** The address of global `name`: the 64-bit constant `&name`, free but for `addressFacts`. */
function globalAddress(name: string): Term {
  return variable(`&${name}`, 64);
}

const TOP = 1n << 64n;

/**
 * What C guarantees of each global's address, by the name of its constant
 * (`&proc_table`): an object's address is not null (C11 6.3.2.3), it is a
 * multiple of the object's alignment (6.2.8; the largest `aligned(N)` of its
 * declarations, so a page-aligned table is page-aligned), and the object
 * lies inside the address space (its last byte does not wrap past 2^64).
 * No query assumes these, as hv6's verifier assumes nothing of a global's
 * address; a counterexample prefers a state that keeps them (docs/c-subset.md,
 * "Memory model").
 */
export function addressFacts(program: CProgram): ReadonlyMap<string, Term> {
  const out = new Map<string, Term>();
  for (const g of program.globals.values()) {
    const a = globalAddress(g.name);
    const align = BigInt(program.globalAlign.get(g.name) ?? 1);
    const size = BigInt(Math.max(1, sizeOf(g.type) ?? 1));
    const aligned = (align & (align - 1n)) === 0n
      ? o.eq(o.bvand(a, bvConst(align - 1n, 64)), bvConst(0n, 64))
      : o.eq(o.urem(a, bvConst(align, 64)), bvConst(0n, 64));
    out.set(a.name!, o.and(o.not(o.eq(a, bvConst(0n, 64))), aligned, o.ule(a, bvConst(TOP - size, 64))));
  }
  return out;
}

// ------------------------------------------------------------------ map construction

/**
 * Remembers a map's value per index tuple. Merged memories share structure
 * (`If(c, update(m), m)` reads `m` on both sides), so without this a read
 * through k nested merges costs 2^k calls even though the resulting term is
 * a small shared DAG. Indices are hash-consed, so their ids are a key.
 */
function cached(f: MapFn): MapFn {
  const memo = new Map<string, Term>();
  return {
    domain: f.domain,
    range: f.range,
    apply(args) {
      let k = '';
      for (const a of args) k += `${a.id},`;
      let v = memo.get(k);
      if (v === undefined) {
        v = f.apply(args);
        memo.set(k, v);
      }
      return v;
    },
  };
}

// Every map built here records a bound on the depth of the terms its reads
// build (limits.ts): a read goes through each layer of writes and merges, so
// the executor can refuse a memory that would be too deep to read.

/** `updateMap` with a read cache. */
export function updateMap(f: MapFn, prefix: readonly Term[], value: Term): MapFn {
  const depth = 2 + Math.max(mapDepth(f), termDepth(value), 1 + maxDepth(prefix));
  return setMapDepth(cached(rawUpdateMap(f, prefix, value)), depth);
}

/** `iteMap` with a read cache. */
export function iteMap(c: Term, f: MapFn, g: MapFn): MapFn {
  const m = rawIteMap(c, f, g);
  if (m === f || m === g) return m;
  return setMapDepth(cached(m), 1 + Math.max(termDepth(c), mapDepth(f), mapDepth(g)));
}

/**
 * `lambdaMap` with a read cache; `depth` bounds the depth of what `body`
 * returns (less the indices' own depth).
 */
export function lambdaMap(domain: readonly number[], range: number, body: (args: readonly Term[]) => Term, depth: number): MapFn {
  return setMapDepth(cached(rawLambdaMap(domain, range, body)), depth);
}

// ------------------------------------------------------------------ pointers

export type Step =
  | { readonly kind: 'index'; readonly index: Term; readonly length: number; readonly elemSize: number }
  | { readonly kind: 'field'; readonly member: StructMember };

/** A path into global `base`; `type` is the type of the object it designates. */
export interface ObjPtr {
  readonly kind: 'obj';
  readonly base: string;
  readonly steps: readonly Step[];
  readonly type: CType;
}

export interface NullPtr {
  readonly kind: 'null';
}

/** A string literal (only hooks such as `panic` may receive one). */
export interface StrPtr {
  readonly kind: 'str';
  readonly value: string;
}

export interface IfPtr {
  readonly kind: 'ite';
  readonly cond: Term;
  readonly then: Ptr;
  readonly else: Ptr;
}

export type Ptr = ObjPtr | NullPtr | StrPtr | IfPtr;

export const NULL_PTR: NullPtr = { kind: 'null' };

/** The pointer to a whole global. */
export function globalPtr(name: string, type: CType): ObjPtr {
  return { kind: 'obj', base: name, steps: [], type };
}

/** The leaves of a pointer with the condition under which each is the one. */
export function ptrCases(p: Ptr, guard: Term = o.TRUE): { guard: Term; ptr: ObjPtr | NullPtr | StrPtr }[] {
  if (p.kind !== 'ite') return [{ guard, ptr: p }];
  return [...ptrCases(p.then, o.and(guard, p.cond)), ...ptrCases(p.else, o.and(guard, o.not(p.cond)))];
}

/** Applies `f` to every path of `p`, keeping the branching. */
export function mapPtr(p: Ptr, f: (q: ObjPtr | NullPtr | StrPtr) => Ptr): Ptr {
  if (p.kind !== 'ite') return f(p);
  return mkIfPtr(p.cond, mapPtr(p.then, f), mapPtr(p.else, f));
}

function sameShape(a: ObjPtr, b: ObjPtr): boolean {
  return (
    a.base === b.base &&
    a.steps.length === b.steps.length &&
    a.steps.every((s, i) => {
      const t = b.steps[i];
      return s.kind === 'index' ? t.kind === 'index' : t.kind === 'field' && t.member === s.member;
    })
  );
}

/** The pointer that is `a` where `c` holds and `b` elsewhere. */
export function mkIfPtr(c: Term, a: Ptr, b: Ptr): Ptr {
  if (a === b || isTrue(c)) return a;
  if (isFalse(c)) return b;
  if (a.kind === 'obj' && b.kind === 'obj' && sameShape(a, b)) {
    return {
      kind: 'obj',
      base: a.base,
      type: a.type,
      steps: a.steps.map((s, i) => {
        const t = b.steps[i];
        return s.kind === 'index' && t.kind === 'index' ? { ...s, index: o.ite(c, s.index, t.index) } : s;
      }),
    };
  }
  if (a.kind === 'null' && b.kind === 'null') return a;
  return { kind: 'ite', cond: c, then: a, else: b };
}

/** The memory key of the leaf a scalar path designates. */
export function leafKey(p: ObjPtr): string {
  let k = p.base;
  for (const s of p.steps) if (s.kind === 'field' && s.member.name !== undefined) k += `.${s.member.name}`;
  return k;
}

export function leafIndices(p: ObjPtr): Term[] {
  const out: Term[] = [];
  for (const s of p.steps) if (s.kind === 'index') out.push(s.index);
  return out;
}

function mapOf(mem: CMemory, key: string): MapFn {
  const f = mem.get(key);
  if (!f) throw new Error(`the memory has no entry '${key}'`);
  return f;
}

/** Reads the scalar at `p`. */
export function readScalar(mem: CMemory, p: ObjPtr): Term {
  if (p.type.kind !== 'int') throw new Error(`read of a ${typeName(p.type)} as a scalar`);
  return mapOf(mem, leafKey(p)).apply(leafIndices(p));
}

/** Returns a new memory where the scalar at `p` is `v` when `guard` holds. */
export function writeScalar(mem: CMemory, p: ObjPtr, v: Term, guard: Term = o.TRUE): CMemory {
  if (p.type.kind !== 'int') throw new Error(`write of a ${typeName(p.type)} as a scalar`);
  const key = leafKey(p);
  const f = mapOf(mem, key);
  const idx = leafIndices(p);
  const value = isTrue(guard) ? v : o.ite(guard, v, f.apply(idx));
  const m = new Map(mem);
  m.set(key, updateMap(f, idx, value));
  return m;
}

/** A leaf below an object: its key, the indices fixed by the object's path, and how many are free. */
export interface ObjectLeaf {
  readonly key: string;
  readonly prefix: readonly Term[];
  readonly free: number;
  readonly type: IntType;
  /** The leaf's path relative to the object (member names and '[]'), to pair leaves of two objects. */
  readonly rel: string;
}

/** Every scalar leaf of the object at `p` (the object itself if it is a scalar). */
function objectLeaves(p: ObjPtr): ObjectLeaf[] {
  const key = leafKey(p);
  const prefix = leafIndices(p);
  const out: ObjectLeaf[] = [];
  const walk = (t: CType, k: string, free: number, rel: string) => {
    switch (t.kind) {
      case 'int':
        out.push({ key: k, prefix, free, type: t, rel });
        return;
      case 'array':
        walk(t.of, k, free + 1, `${rel}[]`);
        return;
      case 'struct':
        for (const m of t.members) walk(m.type, m.name === undefined ? k : `${k}.${m.name}`, free, `${rel}.${m.name ?? ''}`);
        return;
      default:
        return;
    }
  };
  walk(p.type, key, 0, '');
  return out;
}

/** Sets every leaf of the object at `p` to `value(leaf)` (under `guard`). */
export function fillObject(mem: CMemory, p: ObjPtr, value: (l: ObjectLeaf) => Term, guard: Term = o.TRUE): CMemory {
  const m = new Map(mem);
  for (const l of objectLeaves(p)) {
    const f = mapOf(m, l.key);
    const g = updateMap(f, l.prefix, value(l));
    m.set(l.key, iteMap(guard, g, f));
  }
  return m;
}

/** Copies the object at `src` over the object at `dst` (same type), under `guard`. */
export function copyObject(mem: CMemory, dst: ObjPtr, src: ObjPtr, guard: Term = o.TRUE): CMemory {
  const m = new Map(mem);
  const srcLeaves = new Map(objectLeaves(src).map((l) => [l.rel, l]));
  for (const d of objectLeaves(dst)) {
    const s = srcLeaves.get(d.rel)!;
    const df = mapOf(mem, d.key);
    const sf = mapOf(mem, s.key);
    const k = d.prefix.length;
    const depth = 2 + Math.max(mapDepth(sf) + maxDepth(s.prefix), mapDepth(df), 1 + maxDepth(d.prefix));
    const copied = lambdaMap(df.domain, df.range, (args) => {
      const hit = o.and(...d.prefix.map((x, i) => o.eq(args[i], x)));
      return o.ite(hit, sf.apply([...s.prefix, ...args.slice(k)]), df.apply(args));
    }, depth);
    m.set(d.key, iteMap(guard, copied, df));
  }
  return m;
}

/** The integer address of a pointer: `&G` plus the byte offset of the path. */
export function address(p: Ptr): Term {
  switch (p.kind) {
    case 'null':
      return bvConst(0n, 64);
    case 'str':
      return variable(`&"${p.value}"`, 64);
    case 'ite':
      return o.ite(p.cond, address(p.then), address(p.else));
    case 'obj':
      return plusSteps(globalAddress(p.base), p);
  }
}

/** `start` plus the byte offset of `p`'s path in its global. */
function plusSteps(start: Term, p: ObjPtr): Term {
  let a = start;
  for (const s of p.steps) {
    if (s.kind === 'field') a = o.add(a, bvConst(BigInt(s.member.offset), 64));
    else a = o.add(a, o.mul(s.index, bvConst(BigInt(s.elemSize), 64)));
  }
  return a;
}

/**
 * An ordering of two pointers (`less` on unsigned byte offsets: `<`, `<=`,
 * ...), as C orders pointers into one object (C11 6.5.8): by their offsets
 * in the global, so later members and larger subscripts compare greater
 * whatever the global's address. Ordering pointers into different objects
 * (or a null pointer) is undefined; the result then names the two objects.
 */
export function ptrOrder(a: Ptr, b: Ptr, less: (x: Term, y: Term) => Term): Term | { readonly apart: readonly [string, string] } {
  const parts: Term[] = [];
  for (const x of ptrCases(a)) {
    for (const y of ptrCases(b)) {
      const guard = o.and(x.guard, y.guard);
      if (isFalse(guard)) continue;
      if (x.ptr.kind !== 'obj' || y.ptr.kind !== 'obj' || x.ptr.base !== y.ptr.base) return { apart: [objectName(x.ptr), objectName(y.ptr)] };
      parts.push(o.and(guard, less(plusSteps(bvConst(0n, 64), x.ptr), plusSteps(bvConst(0n, 64), y.ptr))));
    }
  }
  return o.or(...parts);
}

function objectName(p: ObjPtr | NullPtr | StrPtr): string {
  return p.kind === 'obj' ? p.base : p.kind === 'null' ? 'a null pointer' : 'a string literal';
}

/** `a == b` for two pointers. Distinct globals never alias; paths of one global compare by indices or address. */
export function ptrEquals(a: Ptr, b: Ptr): Term {
  const parts: Term[] = [];
  for (const x of ptrCases(a)) {
    for (const y of ptrCases(b)) {
      parts.push(o.and(x.guard, y.guard, leafEquals(x.ptr, y.ptr)));
    }
  }
  return o.or(...parts);
}

function leafEquals(a: ObjPtr | NullPtr | StrPtr, b: ObjPtr | NullPtr | StrPtr): Term {
  if (a.kind === 'null' || b.kind === 'null') return a.kind === b.kind ? o.TRUE : o.FALSE;
  if (a.kind === 'str' || b.kind === 'str') return a === b ? o.TRUE : o.FALSE;
  if (a.base !== b.base) return o.FALSE;
  if (sameShape(a, b)) {
    return o.and(...leafIndices(a).map((x, i) => o.eq(x, leafIndices(b)[i])));
  }
  return o.eq(address(a), address(b));
}

/** `p != NULL`. */
export function ptrNonNull(p: Ptr): Term {
  return o.or(...ptrCases(p).map((c) => (c.ptr.kind === 'null' ? o.FALSE : c.guard)));
}

/** Whether an object of type `actual` may be accessed as `wanted` (same type, or integers of one width). */
export function accessibleAs(actual: CType, wanted: CType): boolean {
  if (actual.kind === 'int' && wanted.kind === 'int') return actual.width === wanted.width;
  return sameType(actual, wanted);
}

