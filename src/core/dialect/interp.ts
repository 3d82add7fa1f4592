/**
 * The tree-walking interpreter of the spec dialect. It evaluates the parsed
 * Python subset over dialect values (values.ts), with Python's scoping
 * (function locals are fixed statically, closures bind late), and turns
 * every failure into a SpecError at the innermost node. It never executes
 * spec text as JavaScript.
 *
 * Limits: every statement and expression costs one step; user calls nest at
 * most `maxDepth` deep. Whole-map lambdas stored in a state run later, when
 * the map is read; such a call made after the run gets a fresh step budget.
 */
import { SortError } from '../smt/ops.ts';
import { BOOL, type Term } from '../smt/term.ts';
import type { Span } from '../span.ts';
import type * as A from './ast.ts';
import { iterate, pythonBuiltins } from './builtins/python.ts';
import { enumMemberPath } from './builtins/dt.ts';
import {
  SpecError,
  argumentCount,
  assertionFailed,
  badArgument,
  closest,
  depthLimit,
  indexOutOfRange,
  intTooLarge,
  internalError,
  invalidWrite,
  notCallable,
  refcntMisuse,
  sortMismatch,
  stepLimit,
  syntaxError,
  typeError,
  unboundLocal,
  unknownAttribute,
  unknownImportName,
  unknownModule,
  unknownName,
  unpackMismatch,
  valueError,
} from './errors.ts';
import {
  callAccessor,
  callRefcnt,
  indexAccessor,
  indexRefcnt,
  indexStruct,
  refcntUpdate,
  setAccessorItem,
  setStateAttr,
  setStructAttr,
  stateAttr,
  structAttr,
} from './kernelstate.ts';
import type { FunctionCaller } from './lambda-field.ts';
import { MAX_INT_BITS } from './lexer.ts';
import { bumpEpoch } from './maps.ts';
import { preludeNames, resolveModule } from './modules.ts';
import { MAX_SEQ } from './limits.ts';
import { binop, compare, unary } from './pyops.ts';
import { tryToSort } from './coerce.ts';
import { describe, intOf, isPyInt, isTerm, pyRepr, pyStr, truthy, typeName } from './values.ts';
import { Builtin, type CallSite, Env, PyFunction, PyList, PyTuple, type PyValue, SortValue } from './objects.ts';

export interface Limits {
  /** Statements plus expressions evaluated (default 200000). */
  readonly maxSteps: number;
  /** Nested user function calls (default 100). */
  readonly maxDepth: number;
}

export const DEFAULT_LIMITS: Limits = { maxSteps: 200_000, maxDepth: 100 };

/** Statements that may change what a stored lambda sees (see maps.ts `bumpEpoch`). */
const MUTATING: Record<A.Stmt['kind'], boolean> = {
  FunctionDef: true,
  Return: false,
  Assign: true,
  AugAssign: true,
  ExprStmt: true,
  If: false,
  Pass: false,
  Import: true,
  ImportFrom: true,
  Assert: false,
  Print: true,
};

class Ret {
  constructor(
    readonly value: PyValue,
    readonly span: Span,
  ) {}
}

let builtinsEnv: Env | undefined;
let preludeEnv: Env | undefined;

function builtins(): Env {
  if (builtinsEnv) return builtinsEnv;
  builtinsEnv = new Env(undefined);
  for (const b of pythonBuiltins()) builtinsEnv.vars.set(b.name, b);
  return builtinsEnv;
}

/** The names of hv6's specs.py namespace (modules.ts `preludeNames`), above Python's builtins. Never written. */
function preludeScope(): Env {
  if (preludeEnv) return preludeEnv;
  preludeEnv = new Env(builtins());
  for (const [k, v] of preludeNames()) preludeEnv.vars.set(k, v);
  return preludeEnv;
}

export class Interpreter implements FunctionCaller {
  readonly globals: Env;
  private steps = 0;
  private depth = 0;
  private running = false;
  /** The span of the last `return` executed (or of the def that fell off its end). */
  lastReturnSpan: Span | undefined;

  constructor(
    readonly source: string,
    readonly module: A.Module,
    readonly limits: Limits = DEFAULT_LIMITS,
  ) {
    this.globals = new Env(preludeScope());
  }

  /** Steps used so far in the current run. */
  get stepsUsed(): number {
    return this.steps;
  }

  /** Runs `body` as the top of a run: fresh budget, SpecErrors carry the source. */
  run<T>(body: () => T): T {
    const was = this.running;
    if (!was) {
      this.steps = 0;
      this.depth = 0;
    }
    this.running = true;
    try {
      return body();
    } catch (e) {
      const se = this.convert(e, this.module.span);
      se.source ??= this.source;
      throw se;
    } finally {
      this.running = was;
    }
  }

  /** Executes the module body: imports, definitions, module-level assignments. */
  loadModule(): void {
    this.run(() => this.execBlock(this.module.body, this.globals));
  }

  /** Calls a function value with positional arguments (the entry function). */
  call(fn: PyValue, args: PyValue[], span: Span): PyValue {
    return this.run(() => this.callValue(fn, args, undefined, this.site(span, [])));
  }

  callLazy(fn: PyValue, args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, span: Span): PyValue {
    return this.run(() => this.callValue(fn, args, kwargs, this.site(span, [])));
  }

  private site(span: Span, argSpans: readonly Span[]): CallSite {
    return new Site(this, span, argSpans);
  }

  private tick(span: Span): void {
    if (++this.steps > this.limits.maxSteps) throw stepLimit(span, this.limits.maxSteps);
  }

  private convert(e: unknown, span: Span): SpecError {
    if (e instanceof SpecError) return e;
    if (e instanceof SortError) return sortMismatch(span, e.message);
    if (e instanceof RangeError) {
      if (/call stack/i.test(e.message)) return depthLimit(span, this.limits.maxDepth);
      if (/bigint/i.test(e.message)) return intTooLarge(span, MAX_INT_BITS);
    }
    return internalError(span, e instanceof Error ? e.message : String(e));
  }

  // ------------------------------------------------------------------ statements

  private execBlock(stmts: readonly A.Stmt[], env: Env): Ret | undefined {
    for (const s of stmts) {
      const r = this.exec(s, env);
      if (r) return r;
    }
    return undefined;
  }

  private exec(s: A.Stmt, env: Env): Ret | undefined {
    this.tick(s.span);
    if (MUTATING[s.kind]) bumpEpoch();
    try {
      return this.execInner(s, env);
    } catch (e) {
      throw this.convert(e, s.span);
    }
  }

  private execInner(s: A.Stmt, env: Env): Ret | undefined {
    switch (s.kind) {
      case 'FunctionDef':
        env.vars.set(s.name, this.makeFunction(s.name, s, env));
        return undefined;
      case 'Return':
        this.lastReturnSpan = s.span;
        return new Ret(s.value ? this.eval(s.value, env) : null, s.span);
      case 'Assign': {
        const v = this.eval(s.value, env);
        for (const t of s.targets) this.assign(t, v, env);
        return undefined;
      }
      case 'AugAssign':
        this.augAssign(s, env);
        return undefined;
      case 'ExprStmt':
        this.eval(s.expr, env);
        return undefined;
      case 'If':
        return truthy(this.eval(s.test, env), s.test.span, "'if'")
          ? this.execBlock(s.body, env)
          : this.execBlock(s.orelse, env);
      case 'Pass':
        return undefined;
      case 'Import':
        for (const n of s.names) {
          const m = resolveModule(n.module);
          if (!m) throw unknownModule(n.span, n.module.join('.'));
          if (n.asname) env.vars.set(n.asname, m);
          else env.vars.set(n.module[0], resolveModule([n.module[0]])!);
        }
        return undefined;
      case 'ImportFrom': {
        const dotted = s.module.join('.');
        const m = resolveModule(s.module);
        if (!m) throw unknownModule(s.moduleSpan, dotted);
        if (s.names === '*') {
          for (const [k, v] of m.attrs) if (!k.startsWith('_')) env.vars.set(k, v);
          return undefined;
        }
        for (const a of s.names) {
          const v = m.attrs.has(a.name) ? m.attrs.get(a.name)! : resolveModule([...s.module, a.name]);
          if (v === undefined) throw unknownImportName(a.span, dotted, a.name, closest(a.name, m.attrs.keys()));
          env.vars.set(a.asname ?? a.name, v);
        }
        return undefined;
      }
      case 'Assert': {
        const ok = truthy(this.eval(s.test, env), s.test.span, "'assert'");
        if (!ok) throw assertionFailed(s.span, s.msg ? pyStr(this.eval(s.msg, env), s.msg.span) : undefined);
        return undefined;
      }
      case 'Print': {
        // `print >>f, x` writes to f.write; None means standard output, and no spec value has a write.
        const dest = s.dest ? this.eval(s.dest, env) : null;
        if (dest !== null) throw unknownAttribute(s.dest!.span, typeName(dest), 'write');
        for (const v of s.values) pyStr(this.eval(v, env), v.span);
        return undefined;
      }
    }
    const never: never = s;
    return never;
  }

  private makeFunction(name: string, node: A.FunctionDef | A.Lambda, env: Env): PyFunction {
    const defaults = node.params.map((p) => (p.default ? this.eval(p.default, env) : undefined));
    return new PyFunction(name, node.params, defaults, node, env);
  }

  // ------------------------------------------------------------------ assignment

  private assign(target: A.Expr, value: PyValue, env: Env): void {
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
        this.setAttr(this.eval(target.value, env), target.attr, value, target.span);
        return;
      case 'Subscript': {
        const obj = this.eval(target.value, env);
        const idx = this.eval(target.index, env);
        this.setItem(obj, idx, value, target.span);
        return;
      }
      default:
        throw syntaxError(target.span, 'cannot assign to expression');
    }
  }

  private unpackable(v: PyValue, span: Span): readonly PyValue[] {
    if (typeof v === 'object' && v !== null && !isTerm(v) && (v.kind === 'tuple' || v.kind === 'list')) return v.items;
    if (typeof v === 'string') return [...v];
    throw typeError(span, `cannot unpack non-iterable ${typeName(v)} object`);
  }

  private augAssign(s: A.AugAssign, env: Env): void {
    const t = s.target;
    const rhs = () => this.eval(s.value, env);
    if (t.kind === 'Name') {
      const cur = this.lookup(t.id, env, t.span);
      env.vars.set(t.id, binop(s.op, cur, rhs(), s.span));
      return;
    }
    if (t.kind === 'Attribute') {
      const obj = this.eval(t.value, env);
      const cur = this.getAttr(obj, t.attr, t.attrSpan);
      if (typeof cur === 'object' && cur !== null && !isTerm(cur) && cur.kind === 'refcnt') {
        const f = cur.field;
        throw refcntMisuse(
          s.span,
          `${f.path} ${s.op}= ... needs the owned object`,
          f.kind === 'refcnt2' ? `write new.${f.path.replace('.', '[fn].')}[(pid, fd)] ${s.op}= 1` : `write new.${f.path.replace('.', '[owner].')}[obj] ${s.op}= 1`,
        );
      }
      this.setAttr(obj, t.attr, binop(s.op, cur, rhs(), s.span), t.span);
      return;
    }
    if (t.kind === 'Subscript') {
      const obj = this.eval(t.value, env);
      const idx = this.eval(t.index, env);
      if (typeof obj === 'object' && obj !== null && !isTerm(obj) && obj.kind === 'refcnt') {
        refcntUpdate(obj, idx, s.op, rhs(), s.span);
        return;
      }
      const cur = this.getItem(obj, idx, t.span);
      this.setItem(obj, idx, binop(s.op, cur, rhs(), s.span), t.span);
      return;
    }
    throw syntaxError(t.span, 'illegal expression for augmented assignment');
  }

  private setAttr(obj: PyValue, attr: string, value: PyValue, span: Span): void {
    if (typeof obj === 'object' && obj !== null && !isTerm(obj)) {
      switch (obj.kind) {
        case 'kstate':
          setStateAttr(obj, attr, value, span);
          return;
        case 'struct':
          setStructAttr(obj, attr, value, span, this);
          return;
        case 'module':
        case 'enum':
          throw invalidWrite(span, `cannot assign to ${obj.kind === 'module' ? `module '${obj.name}'` : `dt.${obj.name}`}: built-in modules are read-only`);
        case 'accessor':
          throw invalidWrite(span, `cannot set attributes of an Accessor (${obj.field.path})`);
      }
    }
    throw typeError(span, `cannot set attribute '${attr}' on ${describe(obj)}`);
  }

  private setItem(obj: PyValue, idx: PyValue, value: PyValue, span: Span): void {
    if (typeof obj === 'object' && obj !== null && !isTerm(obj)) {
      switch (obj.kind) {
        case 'list': {
          bumpEpoch();
          const i = this.seqIndex(obj.items.length, idx, span, 'list');
          obj.items[i] = value;
          return;
        }
        case 'accessor':
          setAccessorItem(obj, idx, value, span, this);
          return;
        case 'struct':
          throw invalidWrite(
            span,
            `cannot assign to an element of ${obj.schema.name} itself`,
            `assign one of its fields, e.g. new.${obj.schema.name}[i].${obj.schema.fields[0].name} = value`,
          );
        case 'refcnt':
          throw invalidWrite(
            span,
            `cannot assign to the Refcnt field ${obj.field.path}`,
            'a Refcnt changes only with += 1 or -= 1 on an owned object, e.g. new.procs[pid].nr_pages[pn] += 1',
          );
      }
    }
    throw typeError(span, `'${typeName(obj)}' object does not support item assignment`);
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
        return e.value;
      case 'Tuple':
        return new PyTuple(this.evalItems(e.elts, env));
      case 'List':
        return new PyList(this.evalItems(e.elts, env));
      case 'Attribute':
        return this.getAttr(this.eval(e.value, env), e.attr, e.attrSpan);
      case 'Subscript': {
        const obj = this.eval(e.value, env);
        if (e.index.kind === 'Slice') return this.slice(obj, e.index, env);
        return this.getItem(obj, this.eval(e.index, env), e.span);
      }
      case 'Slice':
        throw syntaxError(e.span, 'a slice is only allowed inside []');
      case 'Call':
        return this.evalCall(e, env);
      case 'BinOp':
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
    }
    const never: never = e;
    return never;
  }

  private evalItems(elts: readonly A.Expr[], env: Env): PyValue[] {
    const out: PyValue[] = [];
    for (const x of elts) {
      if (x.kind === 'Starred') {
        const more = iterate(this.eval(x.value, env), x);
        if (out.length + more.length > MAX_SEQ) throw valueError(x.span, 'sequence too long');
        for (const v of more) out.push(v);
      } else out.push(this.eval(x, env));
    }
    return out;
  }

  private comprehension(e: A.Comprehension, env: Env): PyList {
    const out: PyValue[] = [];
    // A list comprehension runs in the scope around it (Python 2); a generator in its own.
    const inner = e.locals ? new Env(env, e.locals) : env;
    const loop = (gi: number): void => {
      if (gi === e.generators.length) {
        if (out.length === MAX_SEQ) throw valueError(e.span, 'sequence too long');
        out.push(this.eval(e.elt, inner));
        return;
      }
      const g = e.generators[gi];
      const items = iterate(this.eval(g.iter, gi === 0 ? env : inner), g.iter);
      for (const item of items) {
        this.tick(g.iter.span);
        bumpEpoch();
        this.assign(g.target, item, inner);
        if (g.ifs.every((c) => truthy(this.eval(c, inner), c.span, "a comprehension's 'if'"))) loop(gi + 1);
      }
    };
    loop(0);
    return new PyList(out);
  }

  private lookup(name: string, env: Env, span: Span): PyValue {
    for (let e: Env | undefined = env; e; e = e.parent) {
      if (e.locals) {
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

  // ------------------------------------------------------------------ attributes and items

  private getAttr(obj: PyValue, attr: string, span: Span): PyValue {
    if (isTerm(obj)) return this.termAttr(obj, attr, span);
    if (typeof obj === 'object' && obj !== null) {
      switch (obj.kind) {
        case 'module': {
          if (obj.attrs.has(attr)) return obj.attrs.get(attr)!;
          const c = obj.suggest?.(attr) ?? this.qualified(obj.name, closest(attr, obj.attrs.keys()));
          throw unknownAttribute(span, `module '${obj.name}'`, attr, c);
        }
        case 'enum': {
          const m = obj.members.get(attr);
          if (m) return m;
          const c = enumMemberPath(attr) ?? this.qualified(`dt.${obj.name}`, closest(attr, obj.members.keys()));
          throw unknownAttribute(span, `dt.${obj.name}`, attr, c);
        }
        case 'kstate':
          return stateAttr(obj, attr, span);
        case 'struct':
          return structAttr(obj, attr, span);
        case 'sort':
          if (attr === 'size') {
            const w = obj.sort;
            return new Builtin('sort.size', () => BigInt(w));
          }
          break;
        case 'list':
          if (attr === 'append' || attr === 'extend') {
            const list = obj;
            return new Builtin(`list.${attr}`, (args, _kw, site) => {
              if (args.length !== 1) throw badArgument(site.span, `${attr}() takes exactly one argument (${args.length} given)`);
              bumpEpoch();
              const more = attr === 'append' ? [args[0]] : iterate(args[0], site);
              if (list.items.length + more.length > MAX_SEQ) throw valueError(site.span, 'sequence too long');
              for (const v of [...more]) list.items.push(v);
              return null;
            });
          }
          break;
        case 'accessor':
          throw unknownAttribute(span, `the Accessor of ${obj.field.path}`, attr, undefined);
        case 'refcnt':
          throw unknownAttribute(span, `the Refcnt accessor of ${obj.field.path}`, attr, undefined);
      }
    }
    throw unknownAttribute(span, `'${typeName(obj)}' object`, attr, undefined);
  }

  private qualified(prefix: string, name: string | undefined): string | undefined {
    return name === undefined ? undefined : `${prefix}.${name}`;
  }

  /** The few z3py methods of expressions that specs use. */
  private termAttr(t: Term, attr: string, span: Span): PyValue {
    const method = (f: () => PyValue) =>
      new Builtin(`expr.${attr}`, (args, _kw, site) => {
        if (args.length) throw badArgument(site.span, `${attr}() takes no arguments (${args.length} given)`);
        return f();
      });
    switch (attr) {
      case 'size':
        if (t.sort === BOOL) break;
        return method(() => BigInt(t.sort));
      case 'sort':
        return method(() => new SortValue(t.sort));
      case 'as_long':
      case 'as_signed_long':
        return method(() => {
          if (t.op !== 'const' || typeof t.value !== 'bigint') {
            throw typeError(span, `${attr}() needs a bit-vector constant, got a symbolic term`);
          }
          const v = t.value;
          if (attr === 'as_long') return v;
          return v >= 1n << BigInt(t.sort - 1) ? v - (1n << BigInt(t.sort)) : v;
        });
      case 'eq':
        return new Builtin('expr.eq', (args, _kw, site) => {
          if (args.length !== 1) throw badArgument(site.span, `eq() takes exactly one argument (${args.length} given)`);
          return args[0] === t;
        });
    }
    throw unknownAttribute(span, `a ${typeName(t)} term`, attr, closest(attr, ['size', 'sort', 'as_long', 'as_signed_long', 'eq']));
  }

  private seqIndex(len: number, idx: PyValue, span: Span, what: string): number {
    if (!isPyInt(idx)) throw typeError(span, `${what} indices must be integers, not ${typeName(idx)}`);
    let i = intOf(idx);
    if (i < 0n) i += BigInt(len);
    if (i < 0n || i >= BigInt(len)) throw indexOutOfRange(span, what);
    return Number(i);
  }

  private getItem(obj: PyValue, idx: PyValue, span: Span): PyValue {
    if (typeof obj === 'string') return obj[this.seqIndex(obj.length, idx, span, 'string')];
    if (typeof obj === 'object' && obj !== null && !isTerm(obj)) {
      switch (obj.kind) {
        case 'tuple':
        case 'list':
          return obj.items[this.seqIndex(obj.items.length, idx, span, obj.kind)];
        case 'struct':
          return indexStruct(obj, idx);
        case 'accessor':
          return indexAccessor(obj, idx, span);
        case 'refcnt':
          return indexRefcnt(obj, idx, span);
        case 'kstate':
          throw typeError(span, "'KernelState' object is not subscriptable", 'index one of its structs, e.g. old.procs[pid]');
      }
    }
    throw typeError(
      span,
      `'${typeName(obj)}' object is not subscriptable`,
      isTerm(obj) ? 'use z3.Extract(hi, lo, x) to take bits of a bit-vector' : undefined,
    );
  }

  private slice(obj: PyValue, s: A.Slice, env: Env): PyValue {
    const bound = (x: A.Expr | undefined) => {
      if (!x) return undefined;
      const v = this.eval(x, env);
      if (v === null) return undefined;
      if (!isPyInt(v)) throw typeError(x.span, `slice indices must be integers or None, not ${typeName(v)}`);
      return intOf(v);
    };
    const lo = bound(s.lower);
    const hi = bound(s.upper);
    const step = bound(s.step) ?? 1n;
    if (step === 0n) throw typeError(s.span, 'slice step cannot be zero');
    const items: readonly PyValue[] =
      typeof obj === 'string'
        ? [...obj]
        : typeof obj === 'object' && obj !== null && !isTerm(obj) && (obj.kind === 'tuple' || obj.kind === 'list')
          ? obj.items
          : (() => {
              throw typeError(s.span, `'${typeName(obj)}' object is not subscriptable`);
            })();
    const len = BigInt(items.length);
    const clamp = (v: bigint | undefined, dflt: bigint, low: bigint, high: bigint) => {
      if (v === undefined) return dflt;
      if (v < 0n) v += len;
      return v < low ? low : v > high ? high : v;
    };
    const out: PyValue[] = [];
    if (step > 0n) {
      const a = clamp(lo, 0n, 0n, len);
      const b = clamp(hi, len, 0n, len);
      for (let i = a; i < b; i += step) out.push(items[Number(i)]);
    } else {
      const a = clamp(lo, len - 1n, -1n, len - 1n);
      const b = clamp(hi, -1n, -1n, len - 1n);
      for (let i = a; i > b; i += step) out.push(items[Number(i)]);
    }
    if (typeof obj === 'string') return out.join('');
    return typeof obj === 'object' && obj !== null && !isTerm(obj) && obj.kind === 'list' ? new PyList(out) : new PyTuple(out);
  }

  // ------------------------------------------------------------------ calls

  private evalCall(e: A.Call, env: Env): PyValue {
    const f = this.eval(e.func, env);
    const args: PyValue[] = [];
    const argSpans: Span[] = [];
    for (const a of e.args) {
      if (a.kind === 'Starred') {
        for (const v of iterate(this.eval(a.value, env), a)) {
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
          return f.fn.apply(ts);
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
      const env = new Env(fn.closure, fn.node.locals);
      this.bind(fn, args, kwargs, env, span);
      if (fn.node.kind === 'Lambda') return this.eval(fn.node.body, env);
      const r = this.execBlock(fn.node.body, env);
      if (!r) this.lastReturnSpan = fn.node.nameSpan;
      return r ? r.value : null;
    } catch (e) {
      const se = this.convert(e, span);
      // The entry is called "at" its own name: no call site to report.
      const own = fn.node.kind === 'FunctionDef' && fn.node.nameSpan === span;
      if (se.trace.length < 20) se.trace.push(own ? `in ${fn.name}` : `in ${fn.name}, called at line ${span.line}`);
      throw se;
    } finally {
      this.depth--;
    }
  }

  /** Python's argument binding: positionals, *args, keywords, defaults. */
  private bind(fn: PyFunction, args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, env: Env, span: Span): void {
    const { positional, star, required } = fn.shape;
    const name = fn.name;
    const vars = env.vars;
    const n = positional.length;
    if (args.length > n && !star) {
      const takes =
        required === n ? `${n} positional argument${n === 1 ? '' : 's'}` : `from ${required} to ${n} positional arguments`;
      throw argumentCount(span, name, takes, args.length);
    }
    const given = Math.min(args.length, n);
    for (let i = 0; i < given; i++) vars.set(positional[i].name, args[i]);
    if (star) vars.set(star.name, new PyTuple(args.slice(n)));
    if (kwargs) {
      for (const [k, v] of kwargs) {
        const i = positional.findIndex((q) => q.name === k);
        if (i < 0) throw badArgument(span, `${name}() got an unexpected keyword argument '${k}'`);
        if (i < given || vars.has(k)) throw badArgument(span, `${name}() got multiple values for argument '${k}'`);
        vars.set(k, v);
      }
    }
    if (given === n) return;
    const missing: string[] = [];
    for (let i = given; i < n; i++) {
      const p = positional[i];
      if (vars.has(p.name)) continue;
      const d = fn.defaults[fn.params.indexOf(p)];
      if (d !== undefined) vars.set(p.name, d);
      else missing.push(`'${p.name}'`);
    }
    if (missing.length) {
      const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
      throw badArgument(span, `${name}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`);
    }
  }
}

/** A call site: the span of the call, of its arguments, and a way back into the interpreter. */
class Site implements CallSite {
  constructor(
    private readonly interp: Interpreter,
    readonly span: Span,
    readonly argSpans: readonly Span[],
  ) {}

  invoke(f: PyValue, args: PyValue[], kw?: ReadonlyMap<string, PyValue>): PyValue {
    return this.interp.callValue(f, args, kw, new Site(this.interp, this.span, []));
  }
}
