/**
 * Evaluating the spec dialect's expressions and calls (the statements are
 * interp.ts, which extends this class): names with Python's scoping
 * (function locals fixed statically, closures binding late), operators
 * (pyops.ts), attributes and items (access.ts), comprehensions, lambdas and
 * calls of every callable value. Every failure becomes a SpecError at the
 * innermost node; spec text never runs as JavaScript.
 *
 * Limits: every statement and expression costs one step; user calls nest at
 * most `maxDepth` deep.
 */
import { SortError } from '../smt/ops.ts';
import { BOOL } from '../smt/term.ts';
import type { Span } from '../span.ts';
import { getAttr, getItem, setAttr, setItem, sliceOf } from './access.ts';
import { bindArguments } from './arguments.ts';
import type * as A from './ast.ts';
import { tryToSort } from './coerce.ts';
import {
  SpecError,
  argumentCount,
  badArgument,
  closest,
  depthLimit,
  intTooLarge,
  internalError,
  notCallable,
  sortMismatch,
  stepLimit,
  timeLimit,
  syntaxError,
  typeError,
  unboundLocal,
  unknownName,
  unpackMismatch,
  valueError,
} from './errors.ts';
import { collect, itemsOf } from './iteration.ts';
import { callAccessor, callRefcnt } from './kernelstate.ts';
import type { FunctionCaller } from './lambda-field.ts';
import { MAX_INT_BITS } from './lexer.ts';
import { MAX_SEQ } from './limits.ts';
import { bumpEpoch } from './maps.ts';
import { type CallSite, Env, type Output, PyFunction, PyIterator, PyList, PyLong, PyTuple, PyUnicode, type PyValue } from './objects.ts';
import { binop, compare, trueDivide, unary } from './pyops.ts';
import { describe, expr, intOf, isPyInt, isTerm, pyRepr, truthy, typeName } from './values.ts';

export interface Limits {
  /** Statements plus expressions evaluated (default 200000). */
  readonly maxSteps: number;
  /** Nested user function calls (default 100). */
  readonly maxDepth: number;
  /** A wall-clock deadline, read every few steps (the agent's `run` tool; grading has none: the solver's limit bounds it). */
  readonly deadline?: Deadline;
}

/** When a run must stop: `now()` past `at` (both in ms), with the limit named in the error. */
export interface Deadline {
  readonly at: number;
  readonly now: () => number;
  readonly limitMs: number;
}

/** Steps between two reads of a deadline's clock. */
const DEADLINE_EVERY = 64;

export const DEFAULT_LIMITS: Limits = { maxSteps: 200_000, maxDepth: 100 };

/** The object of each unicode and long literal: one per literal, as Python keeps a code object's constants. */
const literals = new WeakMap<A.Constant, PyValue>();

function literalValue(e: A.Constant): PyValue {
  let v = literals.get(e);
  if (v === undefined) {
    v = e.literal === 'long' ? new PyLong(e.value as bigint) : new PyUnicode(e.value as string);
    literals.set(e, v);
  }
  return v;
}

/** What a `return` carries out of the blocks it leaves. */
export class Ret {
  constructor(
    readonly value: PyValue,
    readonly span: Span,
  ) {}
}

export abstract class Evaluator implements FunctionCaller {
  protected steps = 0;
  protected depth = 0;
  /** The span of the last `return` executed (or of the def that fell off its end). */
  lastReturnSpan: Span | undefined;
  /** Where `print` writes; a run without one prints nothing (specs have no output). */
  output: Output | undefined;

  constructor(readonly limits: Limits) {}

  /** Steps used so far in the current run. */
  get stepsUsed(): number {
    return this.steps;
  }

  abstract callLazy(fn: PyValue, args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, span: Span): PyValue;

  /** Runs a function body (interp.ts); a `return` ends it with its value. */
  protected abstract execBlock(stmts: readonly A.Stmt[], env: Env): Ret | undefined;

  protected site(span: Span, argSpans: readonly Span[]): CallSite {
    return new Site(this, span, argSpans);
  }

  protected tick(span: Span): void {
    if (++this.steps > this.limits.maxSteps) throw stepLimit(span, this.limits.maxSteps);
    const d = this.limits.deadline;
    if (d && this.steps % DEADLINE_EVERY === 0 && d.now() > d.at) throw timeLimit(span, d.limitMs);
  }

  protected convert(e: unknown, span: Span): SpecError {
    if (e instanceof SpecError) return e;
    if (e instanceof SortError) return sortMismatch(span, e.message);
    if (e instanceof RangeError) {
      if (/call stack/i.test(e.message)) return depthLimit(span, this.limits.maxDepth);
      if (/bigint/i.test(e.message)) return intTooLarge(span, MAX_INT_BITS);
    }
    return internalError(span, e instanceof Error ? e.message : String(e));
  }

  protected makeFunction(name: string, node: A.FunctionDef | A.Lambda, env: Env): PyFunction {
    const defaults = node.params.map((p) => (p.default ? this.eval(p.default, env) : undefined));
    return new PyFunction(name, node.params, defaults, node, env);
  }

  // ------------------------------------------------------------------ assignment

  protected assign(target: A.Expr, value: PyValue, env: Env): void {
    switch (target.kind) {
      case 'Name':
        env.vars.set(target.id, value);
        return;
      case 'Tuple':
      case 'List': {
        const items = this.unpackable(value, target.span);
        if (items.length !== target.elts.length) throw unpackMismatch(target.span, target.elts.length, items.length);
        target.elts.forEach((t, i) => this.assign(t, items[i], env));
        return;
      }
      case 'Attribute':
        setAttr(this.eval(target.value, env), target.attr, value, target.span, this);
        return;
      case 'Subscript': {
        const obj = this.eval(target.value, env);
        const idx = this.eval(target.index, env);
        setItem(obj, idx, value, target.span, this);
        return;
      }
      default:
        throw syntaxError(target.span, 'cannot assign to expression');
    }
  }

  private unpackable(v: PyValue, span: Span): readonly PyValue[] {
    if (isTerm(v) || v === null || isPyInt(v)) throw typeError(span, `cannot unpack non-iterable ${typeName(v)} object`);
    return collect(v, span);
  }

  // ------------------------------------------------------------------ expressions

  /** Evaluates an expression; failures become SpecErrors at the innermost node. */
  eval(e: A.Expr, env: Env): PyValue {
    this.tick(e.span);
    try {
      return this.evalInner(e, env);
    } catch (x) {
      throw this.convert(x, e.span);
    }
  }

  private evalInner(e: A.Expr, env: Env): PyValue {
    switch (e.kind) {
      case 'Name':
        return this.lookup(e.id, env, e.span);
      case 'Constant':
        return e.literal ? literalValue(e) : e.value;
      case 'Tuple':
        return new PyTuple(this.evalItems(e.elts, env));
      case 'List':
        return new PyList(this.evalItems(e.elts, env));
      case 'Attribute':
        return getAttr(this.eval(e.value, env), e.attr, e.attrSpan);
      case 'Subscript': {
        const obj = this.eval(e.value, env);
        if (e.index.kind === 'Slice') return this.slice(obj, e.index, env);
        return getItem(obj, this.eval(e.index, env), e.span);
      }
      case 'Slice':
        throw syntaxError(e.span, 'a slice is only allowed inside []');
      case 'Call':
        return this.evalCall(e, env);
      case 'BinOp':
        if (e.trueDivision) return trueDivide(this.eval(e.left, env), this.eval(e.right, env), e.span);
        return binop(e.op, this.eval(e.left, env), this.eval(e.right, env), e.span);
      case 'UnaryOp': {
        const v = this.eval(e.operand, env);
        // A literal like -1 is a Python int.
        return unary(e.op, v, e.op === 'not' ? e.operand.span : e.span);
      }
      case 'BoolOp': {
        let v = this.eval(e.values[0], env);
        for (let i = 1; i < e.values.length; i++) {
          const t = truthy(v, e.values[i - 1].span, `'${e.op}'`);
          if (e.op === 'and' ? !t : t) return v;
          v = this.eval(e.values[i], env);
        }
        return v;
      }
      case 'Compare': {
        let left = this.eval(e.left, env);
        let result: PyValue = true;
        for (let i = 0; i < e.ops.length; i++) {
          const right = this.eval(e.comparators[i], env);
          result = compare(e.ops[i], left, right, e.span);
          if (i < e.ops.length - 1 && !truthy(result, e.span, 'a chained comparison')) return result;
          left = right;
        }
        return result;
      }
      case 'IfExp':
        return truthy(this.eval(e.test, env), e.test.span, 'a conditional expression (x if c else y)')
          ? this.eval(e.body, env)
          : this.eval(e.orelse, env);
      case 'Lambda':
        return this.makeFunction('<lambda>', e, env);
      case 'Comprehension':
        return this.comprehension(e, env);
      case 'Starred':
        throw syntaxError(e.span, "can't use starred expression here");
      case 'Repr':
        return pyRepr(this.eval(e.value, env), e.span);
      case 'Yield':
        // lint.ts lets a yield stand only where the interpreter runs it (interp.ts, runGenerator).
        throw internalError(e.span, 'a yield reached the expression evaluator');
    }
    const never: never = e;
    return never;
  }

  private evalItems(elts: readonly A.Expr[], env: Env): PyValue[] {
    const out: PyValue[] = [];
    for (const x of elts) {
      if (x.kind === 'Starred') {
        const more = collect(this.eval(x.value, env), x.span);
        if (out.length + more.length > MAX_SEQ) throw valueError(x.span, 'sequence too long');
        for (const v of more) out.push(v);
      } else out.push(this.eval(x, env));
    }
    return out;
  }

  /**
   * A list comprehension runs at once, in the scope around it (Python 2); a
   * generator expression is an iterator with a scope of its own, whose
   * first iterable is read now and the rest as it is consumed.
   */
  private comprehension(e: A.Comprehension, env: Env): PyList | PyIterator {
    const inner = e.locals ? new Env(env, e.locals) : env;
    const first = this.eval(e.generators[0].iter, env);
    if (e.list) {
      const out: PyValue[] = [];
      for (const v of this.comprehensionItems(e, inner, first)) {
        if (out.length === MAX_SEQ) throw valueError(e.span, 'sequence too long');
        out.push(v);
      }
      return new PyList(out);
    }
    return new PyIterator('generator', this.comprehensionItems(e, inner, first));
  }

  private *comprehensionItems(e: A.Comprehension, inner: Env, first: PyValue): Generator<PyValue, void, undefined> {
    const self = this;
    function* loop(gi: number): Generator<PyValue, void, undefined> {
      if (gi === e.generators.length) {
        yield self.eval(e.elt, inner);
        return;
      }
      const g = e.generators[gi];
      const iterable = gi === 0 ? first : self.eval(g.iter, inner);
      for (const item of itemsOf(iterable, g.iter.span)) {
        self.tick(g.iter.span);
        bumpEpoch();
        self.assign(g.target, item, inner);
        if (g.ifs.every((c) => truthy(self.eval(c, inner), c.span, "a comprehension's 'if'"))) yield* loop(gi + 1);
      }
    }
    yield* loop(0);
  }

  protected lookup(name: string, env: Env, span: Span): PyValue {
    for (let e: Env | undefined = env; e; e = e.parent) {
      if (e.dynamic) {
        // A function with `import *`: Python 2 looks its names up in a dict, then in the globals.
        if (e.vars.has(name)) return e.vars.get(name) as PyValue;
      } else if (e.locals) {
        if (e.locals.has(name)) {
          const v = e.vars.get(name);
          if (v === undefined && !e.vars.has(name)) throw unboundLocal(span, name);
          return v as PyValue;
        }
      } else if (e.vars.has(name)) {
        return e.vars.get(name) as PyValue;
      }
    }
    throw unknownName(span, name, closest(name, this.visibleNames(env)));
  }

  private visibleNames(env: Env): Set<string> {
    const out = new Set<string>();
    for (let e: Env | undefined = env; e; e = e.parent) for (const k of e.vars.keys()) out.add(k);
    for (let e: Env | undefined = env; e; e = e.parent) if (e.locals) for (const k of e.locals) out.add(k);
    return out;
  }

  /** `obj[lower:upper:step]`: the bounds evaluated here, the slice taken by access.ts. */
  private slice(obj: PyValue, s: A.Slice, env: Env): PyValue {
    const bound = (x: A.Expr | undefined) => {
      if (!x) return undefined;
      const v = this.eval(x, env);
      if (v === null) return undefined;
      if (!isPyInt(v)) throw typeError(x.span, `slice indices must be integers or None, not ${typeName(v)}`);
      return intOf(v);
    };
    return sliceOf(obj, bound(s.lower), bound(s.upper), bound(s.step), s.span);
  }

  // ------------------------------------------------------------------ calls

  private evalCall(e: A.Call, env: Env): PyValue {
    const f = this.eval(e.func, env);
    const args: PyValue[] = [];
    const argSpans: Span[] = [];
    for (const a of e.args) {
      if (a.kind === 'Starred') {
        for (const v of collect(this.eval(a.value, env), a.span)) {
          args.push(v);
          argSpans.push(a.span);
        }
      } else {
        args.push(this.eval(a, env));
        argSpans.push(a.span);
      }
    }
    let kwargs: Map<string, PyValue> | undefined;
    if (e.keywords.length) {
      kwargs = new Map();
      for (const k of e.keywords) kwargs.set(k.name, this.eval(k.value, env));
    }
    if (isTerm(f) && e.func.kind === 'Attribute') {
      throw notCallable(e.span, `a ${typeName(f)} term`, `'${e.func.attr}' is already a value here; drop the parentheses`);
    }
    return this.callValue(f, args, kwargs, this.site(e.span, argSpans));
  }

  /** @internal Used by call sites. */
  callValue(f: PyValue, args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, site: CallSite): PyValue {
    const noKw = (name: string) => {
      if (kwargs && kwargs.size) {
        throw badArgument(site.span, `${name}() takes no keyword arguments`);
      }
    };
    if (typeof f === 'object' && f !== null && !isTerm(f)) {
      switch (f.kind) {
        case 'builtin':
          if (!f.acceptsKeywords) noKw(f.name);
          return f.fn(args, kwargs, site);
        case 'function':
          return this.callFunction(f, args, kwargs, site.span);
        case 'mapfn': {
          noKw(f.name);
          const d = f.fn.domain;
          if (args.length !== d.length) throw argumentCount(site.span, f.name, `${d.length} argument${d.length === 1 ? '' : 's'}`, args.length);
          const ts = args.map((a, i) => {
            const t = tryToSort(a, d[i]);
            if (!t) throw sortMismatch(site.argSpans[i] ?? site.span, `argument ${i + 1} of ${f.name} must be a ${d[i] === BOOL ? 'Bool' : `${d[i]}-bit bit-vector`}, got ${describe(a)}`);
            return t;
          });
          return expr(f.fn.apply(ts));
        }
        case 'accessor':
          noKw(f.field.path);
          return callAccessor(f, args, site.span);
        case 'refcnt':
          noKw(f.field.path);
          return callRefcnt(f, args, site.span);
        case 'class':
        case 'enum':
          throw notCallable(site.span, `class ${f.name}`, 'a spec cannot create kernel-state objects: take old as a parameter and use old.copy()');
        case 'sort':
          throw notCallable(site.span, 'a sort', 'use z3.BitVecVal(k, sort) for a constant of this sort');
        case 'kstate':
        case 'struct':
          throw notCallable(site.span, describe(f), undefined);
      }
    }
    throw notCallable(site.span, isTerm(f) ? `a ${typeName(f)} term` : `'${typeName(f)}' object`);
  }

  private callFunction(fn: PyFunction, args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, span: Span): PyValue {
    if (this.depth >= this.limits.maxDepth) throw depthLimit(span, this.limits.maxDepth);
    this.depth++;
    try {
      const node = fn.node;
      const env = new Env(fn.closure, node.locals, node.kind === 'FunctionDef' && node.starImport === true);
      bindArguments(fn, args, kwargs, env.vars, span);
      for (const p of fn.params) if (p.unpack) this.assign(p.unpack, env.vars.get(p.name)!, env);
      if (node.kind === 'Lambda') return this.eval(node.body, env);
      // A generator function's body runs as its generator is read (interp.ts).
      if (node.generator) return new PyIterator('generator', this.runGenerator(fn, env, span));
      const r = this.execBlock(node.body, env);
      if (!r) this.lastReturnSpan = node.nameSpan;
      return r ? r.value : null;
    } catch (e) {
      throw this.traced(e, fn, span);
    } finally {
      this.depth--;
    }
  }

  /** `e` as a SpecError with this call in its trace. */
  protected traced(e: unknown, fn: PyFunction, span: Span): SpecError {
    const se = this.convert(e, span);
    // The entry is called "at" its own name: no call site to report.
    const own = fn.node.kind === 'FunctionDef' && fn.node.nameSpan === span;
    if (se.trace.length < 20) se.trace.push(own ? `in ${fn.name}` : `in ${fn.name}, called at line ${span.line}`);
    return se;
  }

  /** The items of a generator function's body (interp.ts), run as they are read. */
  protected abstract runGenerator(fn: PyFunction, env: Env, span: Span): Generator<PyValue, void, undefined>;
}

/** A call site: the span of the call, of its arguments, and a way back into the interpreter. */
class Site implements CallSite {
  constructor(
    private readonly interp: Evaluator,
    readonly span: Span,
    readonly argSpans: readonly Span[],
  ) {}

  get output(): Output | undefined {
    return this.interp.output;
  }

  invoke(f: PyValue, args: PyValue[], kw?: ReadonlyMap<string, PyValue>): PyValue {
    return this.interp.callValue(f, args, kw, new Site(this.interp, this.span, []));
  }
}
