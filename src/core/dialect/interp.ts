/**
 * The tree-walking interpreter of the spec dialect: a module's statements
 * (definitions, assignments, imports, `if`, `assert`, `print`) over the
 * expressions evaluator.ts evaluates, and the entry points a run uses
 * (`loadModule`, `call`). Whole-map lambdas stored in a state run later,
 * when the map is read (`callLazy`); such a call made after the run gets a
 * fresh step budget.
 */
import type { Span } from '../span.ts';
import { getAttr, getItem, setAttr, setItem } from './access.ts';
import type * as A from './ast.ts';
import { pythonBuiltins } from './builtins/python.ts';
import { assertionFailed, closest, refcntMisuse, syntaxError, unknownAttribute, unknownImportName, unknownModule } from './errors.ts';
import { DEFAULT_LIMITS, Evaluator, type Limits, Ret } from './evaluator.ts';
import { refcntUpdate } from './kernelstate.ts';
import { bumpEpoch } from './maps.ts';
import { preludeNames, resolveModule } from './modules.ts';
import { Env, type PyValue } from './objects.ts';
import { binop } from './pyops.ts';
import { isTerm, pyStr, truthy, typeName } from './values.ts';

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

  constructor(
    readonly source: string,
    readonly module: A.Module,
    limits: Limits = DEFAULT_LIMITS,
  ) {
    super(limits);
    this.globals = new Env(preludeScope());
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
      const cur = getAttr(obj, t.attr, t.attrSpan);
      if (typeof cur === 'object' && cur !== null && !isTerm(cur) && cur.kind === 'refcnt') {
        const f = cur.field;
        throw refcntMisuse(
          s.span,
          `${f.path} ${s.op}= ... needs the owned object`,
          f.kind === 'refcnt2' ? `write new.${f.path.replace('.', '[fn].')}[(pid, fd)] ${s.op}= 1` : `write new.${f.path.replace('.', '[owner].')}[obj] ${s.op}= 1`,
        );
      }
      setAttr(obj, t.attr, binop(s.op, cur, rhs(), s.span), t.span, this);
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
      setItem(obj, idx, binop(s.op, cur, rhs(), s.span), t.span, this);
      return;
    }
    throw syntaxError(t.span, 'illegal expression for augmented assignment');
  }
}
