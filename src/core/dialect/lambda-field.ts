/**
 * A whole-map lambda written into a field (`new.pages.data = lambda pn, idx,
 * oldfn: ...`, docs/hv6-model.md §4.5), and a write that fails when read:
 * as upstream, neither runs at the write. The map calls the lambda (through
 * the interpreter) each time it is read, with `oldfn` the map before the
 * write; a lambda of the wrong shape, an error inside it, or a wrong value
 * raises then.
 */
import type { FieldSchema } from '../kernel/schema.ts';
import type { MapFn } from '../smt/fn.ts';
import { BOOL, type Sort, boolConst, bvConst } from '../smt/term.ts';
import type { Span } from '../span.ts';
import { sortPhrase } from './coerce.ts';
import { SpecError, badArgument, sortMismatch, typeError } from './errors.ts';
import { failingMap, lazyMap } from './maps.ts';
import { MapFnValue, PyLong, type PyValue } from './objects.ts';
import { describe, expr, intOf, isTerm } from './values.ts';

/** How the object model calls back into the interpreter (whole-map lambdas run lazily). */
export interface FunctionCaller {
  /**
   * Calls a Python function value, possibly after the run has finished (a
   * lambda stored in the post-state is evaluated when the map is read).
   */
  callLazy(fn: PyValue, args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, span: Span): PyValue;
}

/** The field after a write that raises `e` when read: every read throws a copy of it. */
export function failingField(domain: readonly Sort[], field: FieldSchema, span: Span, e: SpecError): MapFn {
  return failingMap(domain, field.value, () => {
    const again = new SpecError(e.code, e.message, e.span, e.notes);
    again.trace.push(`raised when ${field.path} is read (written at line ${span.line})`);
    return again;
  });
}

const INDEX_NAMES: ReadonlyMap<string, readonly string[]> = new Map([['procs', ['pid', 'fd']], ['pages', ['pn', 'idx']], ['files', ['fn']]]);

export function indexNames(field: FieldSchema): string {
  const base = INDEX_NAMES.get(field.struct ?? '') ?? ['i', 'j'];
  return field.index.map((_, i) => base[i] ?? `i${i}`).join(', ');
}

/** A whole-map lambda: evaluated lazily, with `oldfn` the map before this write. */
export function lambdaField(field: FieldSchema, old: MapFn, fn: PyValue, span: Span, caller: FunctionCaller): MapFn {
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
      // The lambda's indices are z3 expressions, one new object each, as z3py passes them.
      r = caller.callLazy(fn, args.map(expr), kwargs, span);
    } catch (e) {
      if (e instanceof SpecError && !e.trace.some((t) => t.startsWith('evaluated lazily'))) {
        e.trace.push(`evaluated lazily, when ${field.path} is read (assigned at line ${span.line})`);
      }
      throw e;
    }
    if (isTerm(r)) {
      if (r.term.sort !== field.value) {
        throw sortMismatch(at, `the function assigned to ${field.path} returned ${describe(r)}; the field holds ${sortPhrase(field.value)} values`);
      }
      return r.term;
    }
    if (((typeof r === 'bigint' || r instanceof PyLong) && field.value !== BOOL) || (typeof r === 'boolean' && field.value === BOOL)) {
      return typeof r === 'boolean' ? boolConst(r) : bvConst(intOf(r), field.value);
    }
    throw typeError(at, `the function assigned to ${field.path} returned ${describe(r)}; the field holds ${sortPhrase(field.value)} values`);
  });
}

