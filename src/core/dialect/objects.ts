/**
 * The runtime values of the spec dialect, as data: Python's own values use
 * JavaScript primitives (int = bigint, bool = boolean, None = null, str =
 * string), a z3 expression is an `ExprRef` around a hash-consed `Term`
 * (a new one per operation, as z3py makes a new Python object for each),
 * and everything else is one of the
 * object classes below, tagged by `kind`: tuples, lists, functions,
 * modules, sorts, enums, and the kernel-state object model (a
 * `KernelState`, `Struct` views with an index path, `Accessor`s and Refcnt
 * accessors; docs/hv6-model.md §4.3-4.7). A leaf: the operations on values
 * are values.ts, those on the kernel state kernelstate.ts.
 *
 * Kernel-state layout: a KernelStateObj owns one mutable table of scalar
 * maps and one StructObj per struct; a StructObj holds the struct's field
 * table (name -> MapFn or Refcnt value) and an index path. `s[i]` makes a
 * new StructObj that shares the field table, so a write through a view
 * updates the state, as upstream. The stored values themselves are
 * immutable `MapFn`s: a write replaces a table entry with a new map, so a
 * copied or pre-state table is never affected.
 */
import type { FieldSchema, StructSchema } from '../kernel/schema.ts';
import type { FieldValue } from '../kernel/state.ts';
import type { MapFn } from '../smt/fn.ts';
import type { Sort, Term } from '../smt/term.ts';
import type { Span } from '../span.ts';
import type * as A from './ast.ts';

export type PyValue = bigint | boolean | null | string | PyObject;

export type PyObject =
  | ExprRef
  | PyTuple
  | PyList
  | PyUnicode
  | PyLong
  | PyIterator
  | PyXrange
  | PyFunction
  | Builtin
  | ModuleValue
  | SortValue
  | EnumClass
  | OpaqueClass
  | MapFnValue
  | KernelStateObj
  | StructObj
  | Accessor
  | RefcntAccessor;

/**
 * A z3 expression as z3py hands it out: each operation that makes an
 * expression (`util.i64(1)`, `x + 1`, a read of `old.procs[pid].state`)
 * makes a new Python object, so `util.i64(1) is util.i64(1)` is False while
 * `a is a` is True, as in z3py. Underneath, equal terms are one hash-consed
 * `Term`, which is what every operation works on.
 */
export class ExprRef {
  readonly kind = 'expr';
  constructor(readonly term: Term) {}

  toString(): string {
    return this.term.toString();
  }
}

export class PyTuple {
  readonly kind = 'tuple';
  constructor(readonly items: readonly PyValue[]) {}
}

export class PyList {
  readonly kind = 'list';
  constructor(readonly items: PyValue[]) {}
}

/**
 * Python 2's `unicode`: text. (Its `str` is a JavaScript string of bytes,
 * one character 0-255 per byte.) Python 2.7 on Linux counts code points,
 * so `len()`, indices and slices go by code point, not by UTF-16 unit.
 */
export class PyUnicode {
  readonly kind = 'unicode';
  constructor(readonly text: string) {}
}

/** Python 2's `long` (`10L`, or an int that left the 64-bit range): an integer whose repr ends in L. */
export class PyLong {
  readonly kind = 'long';
  constructor(readonly value: bigint) {}
}

/**
 * A Python iterator, single pass: a generator (of a generator function or a
 * generator expression) or the iterator of a sequence (`iter(x)`,
 * `reversed(x)`). Once exhausted, or once its code raised, it yields
 * nothing more.
 */
export class PyIterator {
  readonly kind = 'iterator';
  private finished = false;
  private running = false;

  constructor(
    /** Python's type name: 'generator', 'listiterator', ... */
    readonly typeName: string,
    private readonly source: Iterator<PyValue, unknown, undefined>,
  ) {}

  /**
   * The next item, or undefined when there is none. `reentered` builds the
   * error for a generator that asks itself for its next item (Python's
   * "generator already executing").
   */
  next(reentered: () => Error): PyValue | undefined {
    if (this.finished) return undefined;
    if (this.running) throw reentered();
    this.running = true;
    try {
      const r = this.source.next();
      if (r.done) this.finished = true;
      return r.done ? undefined : r.value;
    } catch (e) {
      this.finished = true;
      throw e;
    } finally {
      this.running = false;
    }
  }
}

/** Python 2's `xrange(start, stop, step)`: the ints of a range, made as they are read. */
export class PyXrange {
  readonly kind = 'xrange';
  constructor(
    readonly start: bigint,
    readonly stop: bigint,
    readonly step: bigint,
  ) {}

  get length(): bigint {
    const { start, stop, step } = this;
    if (step > 0n) return stop > start ? (stop - start + step - 1n) / step : 0n;
    return start > stop ? (start - stop - step - 1n) / -step : 0n;
  }
}

/** Where `print` writes (a run that shows no output has none). */
export interface Output {
  write(text: string): void;
}

/** Where a native function was called from, for its error messages. */
export interface CallSite {
  readonly span: Span;
  /** Where print() writes, when the run keeps its output. */
  readonly output?: Output;
  /** One span per positional argument (after unpacking, the starred expression's span). */
  readonly argSpans: readonly Span[];
  /** Calls a Python function value (for natives that take callbacks: util.partial_update, ...). */
  readonly invoke: (fn: PyValue, args: PyValue[], kwargs?: ReadonlyMap<string, PyValue>) => PyValue;
}

export type NativeFn = (args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, site: CallSite) => PyValue;

/** A function implemented in TypeScript (z3.And, util.If, len, ...). */
export class Builtin {
  readonly kind = 'builtin';
  constructor(
    /** Qualified name for messages: "z3.And", "util.If", "len". */
    readonly name: string,
    readonly fn: NativeFn,
    /** Accepts keyword arguments (passed through); otherwise any keyword is an error. */
    readonly acceptsKeywords = false,
    /** Signature and a sentence of documentation, for the editor catalog. */
    readonly info?: BuiltinInfo,
  ) {}
}

export interface BuiltinInfo {
  /** e.g. "ULT(a, b)" */
  readonly sig: string;
  readonly doc: string;
}

/** One frame of name bindings. Function frames know their local names statically. */
export class Env {
  readonly vars = new Map<string, PyValue>();
  constructor(
    readonly parent: Env | undefined,
    /** For function and lambda frames: the names that are local (undefined for module and builtins). */
    readonly locals?: ReadonlySet<string>,
    /** A function with `from m import *`: its names are whatever it has bound so far, then the globals'. */
    readonly dynamic = false,
  ) {}
}

/** A user `def` or `lambda`, closed over the frame it was defined in (late binding). */
export class PyFunction {
  readonly kind = 'function';
  private shapeCache: ParamShape | undefined;

  constructor(
    readonly name: string,
    readonly params: readonly A.Param[],
    /** Default values, evaluated at definition time (undefined where none). */
    readonly defaults: readonly (PyValue | undefined)[],
    readonly node: A.FunctionDef | A.Lambda,
    readonly closure: Env,
  ) {}

  /** The parameters split for argument binding (computed once). */
  get shape(): ParamShape {
    if (!this.shapeCache) {
      const positional = this.params.filter((p) => !p.star);
      this.shapeCache = {
        positional,
        star: this.params.find((p) => p.star),
        required: positional.filter((p) => p.default === undefined).length,
      };
    }
    return this.shapeCache;
  }
}

export interface ParamShape {
  readonly positional: readonly A.Param[];
  readonly star: A.Param | undefined;
  /** Positional parameters without a default. */
  readonly required: number;
}

export class ModuleValue {
  readonly kind = 'module';
  constructor(
    /** How messages name it: "z3", "dt", "util". */
    readonly name: string,
    readonly attrs: ReadonlyMap<string, PyValue>,
    /** A better suggestion than the closest attribute name, when the module knows one. */
    readonly suggest?: (attr: string) => string | undefined,
  ) {}
}

/** A z3 sort: `dt.pid_t`, `z3.BitVecSort(32)`, `z3.BoolSort()`. */
export class SortValue {
  readonly kind = 'sort';
  constructor(readonly sort: Sort) {}
}

/** An enumeration class of `dt`, e.g. `dt.proc_state`; members are 64-bit values. */
export class EnumClass {
  readonly kind = 'enum';
  constructor(
    readonly name: string,
    /** The members, one object each: `dt.proc_state.PROC_RUNNING is dt.proc_state.PROC_RUNNING`. */
    readonly members: ReadonlyMap<string, ExprRef>,
  ) {}
}

/** A class a spec may name but not use (dt.KernelState, base.Refcnt, types.FunctionType). */
export class OpaqueClass {
  readonly kind = 'class';
  constructor(readonly name: string) {}
}

/** A map used as a Python function: `oldfn` in a whole-map lambda, util.FreshFunction. */
export class MapFnValue {
  readonly kind = 'mapfn';
  constructor(
    readonly fn: MapFn,
    /** For messages: "oldfn of pages.data". */
    readonly name: string,
  ) {}
}

// ------------------------------------------------------------------ the kernel state

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
