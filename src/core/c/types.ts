/**
 * C types of the subset, their x86-64 System V layout (LP64, natural
 * alignment), and C's integer conversions on terms: integer promotions,
 * the usual arithmetic conversions, and conversion on assignment and cast
 * (truncation, sign or zero extension, `_Bool` normalisation).
 */
import { bvConst, type Term } from '../smt/term.ts';
import * as o from '../smt/ops.ts';
import type { CSpan } from './ast.ts';

export interface VoidType {
  readonly kind: 'void';
}

export interface IntType {
  readonly kind: 'int';
  /** Bits: 8, 16, 32 or 64. */
  readonly width: number;
  readonly signed: boolean;
  /** `_Bool`: stored in 8 bits, always 0 or 1. */
  readonly bool: boolean;
  /** For messages: `int`, `unsigned long`, `enum proc_state`, ... */
  readonly name: string;
}

export interface PointerType {
  readonly kind: 'pointer';
  readonly to: CType;
}

export interface ArrayType {
  readonly kind: 'array';
  readonly of: CType;
  readonly length: number;
}

export interface StructMember {
  /** Undefined for an anonymous struct member (its fields are reached directly). */
  readonly name?: string;
  readonly type: CType;
  /** Byte offset in the struct. */
  readonly offset: number;
  readonly span: CSpan;
  /** Declared as a `: 64` bit-field (laid out as a plain 64-bit member). */
  readonly bitField?: boolean;
}

export interface StructType {
  readonly kind: 'struct';
  readonly tag?: string;
  /** Identity across translation units: the tag, or the definition's place for an anonymous struct. */
  readonly id: string;
  /** Filled in when the definition is complete. */
  members: readonly StructMember[];
  size: number;
  align: number;
  complete: boolean;
}

export interface FunctionType {
  readonly kind: 'function';
  readonly ret: CType;
  readonly params: readonly CType[];
  readonly variadic: boolean;
}

export type CType = VoidType | IntType | PointerType | ArrayType | StructType | FunctionType;

export const VOID: VoidType = { kind: 'void' };

export function intType(width: number, signed: boolean, name: string): IntType {
  return { kind: 'int', width, signed, bool: false, name };
}

export const BOOL_T: IntType = { kind: 'int', width: 8, signed: false, bool: true, name: '_Bool' };
export const CHAR = intType(8, true, 'char');
export const SCHAR = intType(8, true, 'signed char');
export const UCHAR = intType(8, false, 'unsigned char');
export const SHORT = intType(16, true, 'short');
export const USHORT = intType(16, false, 'unsigned short');
export const INT = intType(32, true, 'int');
export const UINT = intType(32, false, 'unsigned int');
export const LONG = intType(64, true, 'long');
export const ULONG = intType(64, false, 'unsigned long');
export const LLONG = intType(64, true, 'long long');
export const ULLONG = intType(64, false, 'unsigned long long');
/** `size_t` and the type of `sizeof`. */
export const SIZE_T = ULONG;

export function pointerTo(to: CType): PointerType {
  return { kind: 'pointer', to };
}

/** Array-to-pointer decay. */
export function decay(t: CType): CType {
  return t.kind === 'array' ? pointerTo(t.of) : t;
}

/** A readable name, as in C. */
export function typeName(t: CType): string {
  switch (t.kind) {
    case 'void':
      return 'void';
    case 'int':
      return t.name;
    case 'pointer':
      return `${typeName(t.to)} *`;
    case 'array':
      return `${typeName(t.of)}[${t.length}]`;
    case 'struct':
      return t.tag ? `struct ${t.tag}` : 'struct <anonymous>';
    case 'function':
      return `${typeName(t.ret)} (${t.params.map(typeName).join(', ')}${t.variadic ? ', ...' : ''})`;
  }
}

/** Structural equality (structs by identity across units, integers by width, sign and boolness). */
export function sameType(a: CType, b: CType): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case 'void':
      return b.kind === 'void';
    case 'int':
      return b.kind === 'int' && a.width === b.width && a.signed === b.signed && a.bool === b.bool;
    case 'pointer':
      return b.kind === 'pointer' && sameType(a.to, b.to);
    case 'array':
      return b.kind === 'array' && a.length === b.length && sameType(a.of, b.of);
    case 'struct':
      return b.kind === 'struct' && a.id === b.id;
    case 'function':
      return (
        b.kind === 'function' &&
        a.variadic === b.variadic &&
        sameType(a.ret, b.ret) &&
        a.params.length === b.params.length &&
        a.params.every((p, i) => sameType(p, b.params[i]))
      );
  }
}

// ------------------------------------------------------------------ layout

/** `sizeof`, in bytes; undefined for incomplete types, void and functions. */
export function sizeOf(t: CType): number | undefined {
  switch (t.kind) {
    case 'int':
      return t.width / 8;
    case 'pointer':
      return 8;
    case 'array': {
      const e = sizeOf(t.of);
      return e === undefined ? undefined : e * t.length;
    }
    case 'struct':
      return t.complete ? t.size : undefined;
    default:
      return undefined;
  }
}

export function alignOf(t: CType): number {
  switch (t.kind) {
    case 'int':
      return t.width / 8;
    case 'pointer':
      return 8;
    case 'array':
      return alignOf(t.of);
    case 'struct':
      return t.align;
    default:
      return 1;
  }
}

/**
 * Lays out the members of a struct in order: each at the next offset that
 * is a multiple of its alignment (or of a larger `aligned(N)`), the struct
 * aligned to its strictest member and padded to a multiple of that.
 */
export function layoutStruct(
  s: StructType,
  members: readonly { name?: string; type: CType; span: CSpan; align?: number; bitField?: boolean }[],
  structAlign = 1,
): void {
  let offset = 0;
  let align = structAlign;
  const out: StructMember[] = [];
  for (const m of members) {
    const a = Math.max(alignOf(m.type), m.align ?? 1);
    offset = Math.ceil(offset / a) * a;
    out.push({ name: m.name, type: m.type, offset, span: m.span, ...(m.bitField ? { bitField: true } : {}) });
    offset += sizeOf(m.type) ?? 0;
    align = Math.max(align, a);
  }
  s.members = out;
  s.align = align;
  s.size = Math.ceil(offset / align) * align;
  s.complete = true;
}

/** A member by name, looking through anonymous members; the path of members to it. */
export function findMember(s: StructType, name: string): StructMember[] | undefined {
  for (const m of s.members) {
    if (m.name === name) return [m];
    if (m.name === undefined && m.type.kind === 'struct') {
      const inner = findMember(m.type, name);
      if (inner) return [m, ...inner];
    }
  }
  return undefined;
}

// ------------------------------------------------------------------ arithmetic conversions

/** The integer promotions: anything narrower than int becomes int. */
export function promote(t: IntType): IntType {
  return t.width < 32 ? INT : t;
}

/** The usual arithmetic conversions of two (integer) operand types. */
export function usualArithmetic(a: IntType, b: IntType): IntType {
  const x = promote(a);
  const y = promote(b);
  if (x.signed === y.signed) return x.width >= y.width ? x : y;
  const [u, s] = x.signed ? [y, x] : [x, y];
  if (u.width >= s.width) return u;
  // The signed type is wider and represents every value of the unsigned one.
  return s;
}

/**
 * Converts the value `t` of type `from` to type `to` (assignment, cast,
 * argument passing): to `_Bool` it is `t != 0`; otherwise it is truncated
 * or extended according to the signedness of `from`.
 */
export function convertInt(t: Term, from: IntType, to: IntType): Term {
  if (to.bool) {
    if (from.bool) return t;
    return boolToInt(truthOf(t), 8);
  }
  return resizeTerm(t, to.width, from.signed);
}

/** Whether `t` is a constant or an `If` tree whose leaves are all constants (a merged error code). */
function isConstTree(t: Term, depth = 64): boolean {
  if (t.op === 'const') return true;
  return t.op === 'ite' && depth > 0 && isConstTree(t.args[1], depth - 1) && isConstTree(t.args[2], depth - 1);
}

/** Truncates or extends, pushing through `If` trees of constants so comparisons fold. */
export function resizeTerm(t: Term, width: number, signed: boolean): Term {
  if (t.sort === width) return t;
  if (t.op === 'ite' && isConstTree(t)) {
    return o.ite(t.args[0], resizeTerm(t.args[1], width, signed), resizeTerm(t.args[2], width, signed));
  }
  return o.resize(t, width, signed);
}

/** `If(c, a, b)` over Bools, as a conjunction or disjunction where a side is constant. */
function boolIte(c: Term, a: Term, b: Term): Term {
  if (a === b) return a;
  if (a.op === 'const') return a.value ? o.or(c, b) : o.and(o.not(c), b);
  if (b.op === 'const') return b.value ? o.or(o.not(c), a) : o.and(c, a);
  return o.ite(c, a, b);
}

/**
 * `t == k`. When `t` is an `If` tree of constants (say the merged return
 * code of a helper), the result is a formula over the tree's conditions:
 * `If(c, -12, If(d, -22, 0)) == 0` is `!c && !d`, whose conjuncts then
 * serve as facts on the path that follows.
 */
export function eqTerm(t: Term, k: Term): Term {
  if (k.op !== 'const' && t.op === 'const') return eqTerm(k, t);
  if (k.op === 'const' && t.op === 'ite' && isConstTree(t)) {
    return boolIte(t.args[0], eqTerm(t.args[1], k), eqTerm(t.args[2], k));
  }
  return o.eq(t, k);
}

/** The C truth value of an integer: `t != 0`, as a Bool. */
export function truthOf(t: Term): Term {
  return o.not(eqTerm(t, bvConst(0n, t.sort)));
}

/** A Bool as a C integer of the given width: 1 or 0. */
export function boolToInt(c: Term, width: number): Term {
  return o.ite(c, bvConst(1n, width), bvConst(0n, width));
}
