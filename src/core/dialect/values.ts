/**
 * Runtime values of the spec dialect. Python's own values use JavaScript
 * primitives (int = bigint, bool = boolean, None = null, str = string); z3
 * expressions are `Term`s; everything else is an object tagged by `kind`.
 * The kernel-state objects (`kernelstate.ts`) are part of this union.
 */
import type { MapFn } from '../smt/fn.ts';
import { BOOL, type Sort, Term, isFalse, isTrue } from '../smt/term.ts';
import type { Span } from '../span.ts';
import type * as A from './ast.ts';
import { symbolicBool } from './errors.ts';
import { warn } from './warnings.ts';
import type { Accessor, KernelStateObj, RefcntAccessor, StructObj } from './kernelstate.ts';

export type PyValue = bigint | boolean | null | string | Term | PyObject;

export type PyObject =
  | PyTuple
  | PyList
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

export class PyTuple {
  readonly kind = 'tuple';
  constructor(readonly items: readonly PyValue[]) {}
}

export class PyList {
  readonly kind = 'list';
  constructor(readonly items: PyValue[]) {}
}

/** Where a native function was called from, for its error messages. */
export interface CallSite {
  readonly span: Span;
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
    readonly members: ReadonlyMap<string, Term>,
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

export function isTerm(v: PyValue): v is Term {
  return v instanceof Term;
}

export function isPyInt(v: PyValue): v is bigint | boolean {
  return typeof v === 'bigint' || typeof v === 'boolean';
}

/** The Python int of an int or bool. */
export function intOf(v: bigint | boolean): bigint {
  return typeof v === 'boolean' ? (v ? 1n : 0n) : v;
}

export function sortLabel(s: Sort): string {
  return s === BOOL ? 'Bool' : `BitVec(${s})`;
}

/** Python-style type name, for "unsupported operand type(s)" messages. */
export function typeName(v: PyValue): string {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'str';
  }
  if (v instanceof Term) return sortLabel(v.sort);
  switch (v.kind) {
    case 'tuple':
      return 'tuple';
    case 'list':
      return 'list';
    case 'function':
      return 'function';
    case 'builtin':
      return 'builtin function';
    case 'module':
      return 'module';
    case 'sort':
      return 'sort';
    case 'enum':
      return 'enum class';
    case 'class':
      return 'class';
    case 'mapfn':
      return 'function';
    case 'kstate':
      return 'KernelState';
    case 'struct':
      return v.schema.className;
    case 'accessor':
      return 'Accessor';
    case 'refcnt':
      return 'Refcnt accessor';
  }
}

/** A short description with an article, for messages: "a 64-bit bit-vector", "int 3". */
export function describe(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'bigint') return `int ${v}`;
  if (typeof v === 'boolean') return `bool ${v ? 'True' : 'False'}`;
  if (typeof v === 'string') return 'a str';
  if (v instanceof Term) return v.sort === BOOL ? 'a Bool term' : `a ${v.sort}-bit bit-vector`;
  switch (v.kind) {
    case 'tuple':
      return `a tuple of ${v.items.length}`;
    case 'list':
      return `a list of ${v.items.length}`;
    case 'kstate':
      return 'a KernelState';
    case 'struct':
      return `a ${v.schema.className} struct`;
    case 'accessor':
      return 'an Accessor';
    case 'refcnt':
      return 'a Refcnt accessor';
    case 'module':
      return `module '${v.name}'`;
    default:
      return `a ${typeName(v)}`;
  }
}

/**
 * Results of a spec's `a == b` that our constant folding turned into
 * something other than an equality (`If(c, 1, 2) == 1` becomes `c`-like
 * terms): z3py still holds an equality AST there, so truthiness must treat
 * them as one.
 */
const foldedEqualities = new WeakSet<Term>();

/** Records that `t` is the (folded) result of a Python `==` on z3 terms. */
export function noteEquality(t: Term): Term {
  if (t.op !== 'eq' && t.op !== 'const') foldedEqualities.add(t);
  return t;
}

/**
 * Python truthiness. A z3 Bool that is literally true or false converts (as
 * in z3py); an equality converts by structural identity with warning
 * SPEC203 (as z3py); any other z3 term raises SPEC012, naming the construct
 * `where`.
 */
export function truthy(v: PyValue, span: Span, where: string): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case 'bigint':
      return v !== 0n;
    case 'boolean':
      return v;
    case 'string':
      return v.length > 0;
  }
  if (v instanceof Term) {
    if (isTrue(v)) return true;
    if (isFalse(v)) return false;
    // z3py's __bool__ (__nonzero__ in Python 2) on an equality a == b is
    // a.eq(b): True only for the same AST. Ours folds identical operands to
    // True already, so an equality left symbolic is two different terms.
    if ((v.op === 'eq' && v.args.length === 2) || foldedEqualities.has(v)) {
      warn('SPEC203', span, `a z3 equality used as a Python bool in ${where} is False here (z3py compares the two expressions structurally, not their values)`, [
        'use util.If, z3.And, z3.Or or z3.Not to branch on the value of a z3 condition',
      ]);
      return false;
    }
    throw symbolicBool(span, where);
  }
  if (v.kind === 'tuple' || v.kind === 'list') return v.items.length > 0;
  return true;
}

/** Python's str() for the values a spec can print or format into messages. */
export function pyStr(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return v;
  if (v instanceof Term) return v.toString();
  if (v.kind === 'tuple') {
    const inner = v.items.map(pyRepr).join(', ');
    return v.items.length === 1 ? `(${inner},)` : `(${inner})`;
  }
  if (v.kind === 'list') return `[${v.items.map(pyRepr).join(', ')}]`;
  return `<${typeName(v)}>`;
}

function pyRepr(v: PyValue): string {
  return typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : pyStr(v);
}
