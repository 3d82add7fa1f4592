/**
 * The tree-walking interpreter of the spec dialect: a module's statements
 * (definitions, assignments, imports, `if`, `assert`, `print`) over the
 * expressions evaluator.ts evaluates, the bodies of generator functions
 * (run a statement at a time as their generator is read), and the entry
 * points a run uses (`loadModule`, `call`). Whole-map lambdas stored in a
 * state run later, when the map is read (`callLazy`); such a call made
 * after the run gets a fresh step budget.
 */
import type { Span } from '../span.ts';
import { getAttr, getItem, setAttr, setItem } from './access.ts';
import type * as A from './ast.ts';
import { pythonBuiltins } from './builtins/python.ts';
import { assertionFailed, closest, refcntMisuse, syntaxError, unknownAttribute, unknownImportName, unknownModule } from './errors.ts';
import { DEFAULT_LIMITS, Evaluator, type Limits, Ret } from './evaluator.ts';
import type { PyFunction } from './objects.ts';
import { refcntUpdate } from './kernelstate.ts';
import { bumpEpoch } from './maps.ts';
import { preludeNames, resolveModule } from './modules.ts';
import { Env, type Output, PyUnicode, type PyValue } from './objects.ts';
import { binop, trueDivide } from './pyops.ts';
import { depthLimit } from './errors.ts';
import { isTerm, messageText, pyStr, truthy, typeName } from './values.ts';

/** The `__name__` of the module a spec is: hv6's specs module, which its verifier imports (never '__main__'). */
const SPEC_MODULE_NAME = 'spec.specs';

/** Statements that may change what a stored lambda sees (see maps.ts `bumpEpoch`). */
const MUTATING: ReadonlyMap<string, boolean> = new Map(Object.entries({
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
} satisfies Record<A.Stmt['kind'], boolean>));

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

export class Interpreter extends Evaluator {
  readonly globals: Env;
  private running = false;

  /** Python 2's softspace of the output: the last print ended without a newline, so the next item starts with a space. */
  private softspace = false;

  constructor(
    readonly source: string,
    readonly module: A.Module,
    limits: Limits = DEFAULT_LIMITS,
    output?: Output,
  ) {
    super(limits);
    this.output = output;
    this.globals = new Env(preludeScope());
    this.globals.vars.set('__name__', SPEC_MODULE_NAME);
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

  override callLazy(fn: PyValue, args: PyValue[], kwargs: ReadonlyMap<string, PyValue> | undefined, span: Span): PyValue {
    return this.run(() => this.callValue(fn, args, kwargs, this.site(span, [])));
  }

  // ------------------------------------------------------------------ statements

  protected override execBlock(stmts: readonly A.Stmt[], env: Env): Ret | undefined {
    for (const s of stmts) {
      const r = this.exec(s, env);
      if (r) return r;
    }
    return undefined;
  }

  private exec(s: A.Stmt, env: Env): Ret | undefined {
    this.tick(s.span);
    if (MUTATING.get(s.kind)) bumpEpoch();
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
        if (!ok) throw assertionFailed(s.span, s.msg ? messageText(this.eval(s.msg, env), s.msg.span) : undefined);
        return undefined;
      }
      case 'Print': {
        // `print >>f, x` writes to f.write; None means standard output, and no spec value has a write.
        const dest = s.dest ? this.eval(s.dest, env) : null;
        if (dest !== null) throw unknownAttribute(s.dest!.span, typeName(dest), 'write');
        for (const v of s.values) this.printItem(this.eval(v, env), v.span);
        if (s.newline) {
          this.output?.write('\n');
          this.softspace = false;
        }
        return undefined;
      }
    }
    const never: never = s;
    return never;
  }

  /**
   * One item of a print statement as Python 2 writes it to a file (hv6's
   * output is a pipe, with no encoding): a space first when the last item
   * left the line open (softspace), then its str() (a unicode encoded as
   * ASCII, or Python's UnicodeEncodeError); the line stays open unless the
   * text ends in whitespace other than a space.
   */
  private printItem(v: PyValue, span: Span): void {
    const text = pyStr(v, span);
    if (this.softspace) this.output?.write(' ');
    this.output?.write(text);
    const last = text[text.length - 1];
    this.softspace = !(typeof v === 'string' || v instanceof PyUnicode) || text === '' || last === ' ' || !/\s/.test(last);
  }

  protected override *runGenerator(fn: PyFunction, env: Env, span: Span): Generator<PyValue, void, undefined> {
    // The body runs a piece at a time, as the generator is read: its frame counts in the depth only while it runs.
    if (this.depth >= this.limits.maxDepth) throw depthLimit(span, this.limits.maxDepth);
    this.depth++;
    try {
      yield* this.generatorBlock(fn.node.body as readonly A.Stmt[], env);
    } catch (e) {
      throw this.traced(e, fn, span);
    } finally {
      this.depth--;
    }
  }

  /** The statements of a generator function: a `yield` (a statement, or an assignment's value, lint.ts) hands out its value. */
  private *generatorBlock(stmts: readonly A.Stmt[], env: Env): Generator<PyValue, Ret | undefined, undefined> {
    for (const s of stmts) {
      const y = s.kind === 'ExprStmt' && s.expr.kind === 'Yield' ? s.expr : s.kind === 'Assign' && s.value.kind === 'Yield' ? s.value : undefined;
      if (y) {
        this.tick(s.span);
        bumpEpoch();
        const v = y.value ? this.eval(y.value, env) : null;
        this.depth--;
        try {
          yield v;
        } finally {
          this.depth++;
        }
        // Nothing is ever sent into the generator: `v = yield x` binds None.
        if (s.kind === 'Assign') for (const t of s.targets) this.assign(t, null, env);
        continue;
      }
      if (s.kind === 'If') {
        this.tick(s.span);
        const r = yield* this.generatorBlock(truthy(this.eval(s.test, env), s.test.span, "'if'") ? s.body : s.orelse, env);
        if (r) return r;
        continue;
      }
      const r = this.exec(s, env);
      if (r) return r;
    }
    return undefined;
  }

  private augAssign(s: A.AugAssign, env: Env): void {
    const t = s.target;
    const rhs = () => this.eval(s.value, env);
    const op = (cur: PyValue, v: PyValue) => (s.trueDivision ? trueDivide(cur, v, s.span) : binop(s.op, cur, v, s.span));
    if (t.kind === 'Name') {
      const cur = this.lookup(t.id, env, t.span);
      env.vars.set(t.id, op(cur, rhs()));
      return;
    }
    if (t.kind === 'Attribute') {
      const obj = this.eval(t.value, env);
      const cur = getAttr(obj, t.attr, t.attrSpan);
      if (typeof cur === 'object' && cur !== null && !isTerm(cur) && cur.kind === 'refcnt') {
        const f = cur.field;
        throw refcntMisuse(
          s.span,
          `${f.path} ${s.op}= ... needs the owned object`,
          f.kind === 'refcnt2' ? `write new.${f.path.replace('.', '[fn].')}[(pid, fd)] ${s.op}= 1` : `write new.${f.path.replace('.', '[owner].')}[obj] ${s.op}= 1`,
        );
      }
      setAttr(obj, t.attr, op(cur, rhs()), t.span, this);
      return;
    }
    if (t.kind === 'Subscript') {
      const obj = this.eval(t.value, env);
      const idx = this.eval(t.index, env);
      if (typeof obj === 'object' && obj !== null && !isTerm(obj) && obj.kind === 'refcnt') {
        refcntUpdate(obj, idx, s.op, rhs(), s.span);
        return;
      }
      const cur = getItem(obj, idx, t.span);
      setItem(obj, idx, op(cur, rhs()), t.span, this);
      return;
    }
    throw syntaxError(t.span, 'illegal expression for augmented assignment');
  }
}
