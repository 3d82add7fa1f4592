/**
 * util.If on two KernelStates or two structs of one class
 * (docs/hv6-model.md §4.7): a new object whose fields are the pointwise If
 * of the two, maps as pointwise Ifs and Refcnts componentwise.
 */
import { type FieldValue, iteField } from '../kernel/state.ts';
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
    fields.set(name, iteField(fa, fb, (x, y) => iteMaps(c, x, y, () => rawError(span, path, x))));
  }
  return new StructObj(a.schema, fields, a.path);
}
