/**
 * Writes into the kernel state's maps (docs/hv6-model.md §4.5): the index
 * and value of a write coerced to the field's sorts (Python ints become
 * BitVecVals; a raw int or bool is kept raw, as upstream), point and
 * broadcast writes, whole-map lambdas (lambda-field.ts), and the log of
 * which line last wrote each field.
 */
import type { FieldSchema } from '../kernel/schema.ts';
import type { MapFn } from '../smt/fn.ts';
import { BOOL, type Sort, type Term, bvConst } from '../smt/term.ts';
import type { Span } from '../span.ts';
import { mustBeValue, sortPhrase } from './coerce.ts';
import { SpecError, invalidWrite, iteOfPython, sortMismatch, tooManyIndices, typeError } from './errors.ts';
import { type FunctionCaller, failingField, indexNames, lambdaField } from './lambda-field.ts';
import { type RawMap, bumpEpoch, rawConstantMap, writeMap, writeRawMap } from './maps.ts';
import { PyLong, type PyValue, type StructObj } from './objects.ts';
import { describe, intOf, isPyInt, isTerm } from './values.ts';

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

export function noteWrite(path: string, span: Span): void {
  writeLog?.set(path, span.line);
}

export function isCallable(v: PyValue): boolean {
  return typeof v === 'object' && v !== null && !isTerm(v) && (v.kind === 'function' || v.kind === 'builtin' || v.kind === 'mapfn');
}

/** Index `i` of `field`, as a term of its sort (Python ints become BitVecVals). */
export function coerceIndex(v: PyValue, field: FieldSchema, i: number, span: Span): Term {
  mustBeValue(v, span);
  const sort = field.index[i];
  if (isTerm(v)) {
    if (v.term.sort !== sort) {
      throw sortMismatch(
        span,
        `index ${i + 1} of ${field.path} must be a ${sortPhrase(sort)}, got ${describe(v)}`,
        'use ZeroExt, SignExt or Extract to change the width',
      );
    }
    return v.term;
  }
  if (isPyInt(v)) return termOfInt(intOf(v), sort);
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
export function fieldValue(value: PyValue, field: FieldSchema, span: Span): Term | bigint | boolean {
  const range = field.value;
  if (isTerm(value)) {
    if (value.term.sort !== range) {
      throw sortMismatch(span, `${field.path} holds ${sortPhrase(range)} values but ${describe(value)} was written`);
    }
    return value.term;
  }
  if (typeof value === 'bigint' || value instanceof PyLong) {
    if (range === BOOL) throw sortMismatch(span, `${field.path} holds Bool values but ${describe(value)} was written`);
    return intOf(value);
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

export function writeField(s: StructObj, field: FieldSchema, path: readonly PyValue[], value: PyValue, span: Span, caller: FunctionCaller): void {
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
export function failsOnRead(e: unknown): e is SpecError {
  return e instanceof SpecError && e.code === 'SPEC011';
}

export function coerceOwned(v: PyValue, sort: Sort, field: FieldSchema, span: Span): Term {
  mustBeValue(v, span);
  if (isTerm(v)) {
    if (v.term.sort !== sort) {
      throw sortMismatch(span, `the object owned through ${field.path} must be a ${sortPhrase(sort)}, got ${describe(v)}`);
    }
    return v.term;
  }
  if (isPyInt(v)) return termOfInt(intOf(v), sort);
  throw typeError(span, `the object owned through ${field.path} must be a bit-vector or int, got ${describe(v)}`);
}

