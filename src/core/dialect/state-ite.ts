/**
 * util.If on two KernelStates or two structs of one class
 * (docs/hv6-model.md §4.7): a new object whose fields are the pointwise If
 * of the two, maps as pointwise Ifs and Refcnts componentwise.
 */
import { type FieldValue, isRefcnt } from '../kernel/state.ts';
import type { MapFn } from '../smt/fn.ts';
import type { Term } from '../smt/term.ts';
import type { Span } from '../span.ts';
import { iteOfPython, typeError } from './errors.ts';
import { type RawMap, iteMaps } from './maps.ts';
import { KernelStateObj, type PyValue, StructObj } from './objects.ts';
import { isTerm, typeName } from './values.ts';

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
