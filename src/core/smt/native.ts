/**
 * Z3's C API as the engine uses it: a context of its own for every query,
 * and models read in one long-lived context.
 *
 * Why a context per query (docs/design.md, §3, the paragraph on queries): Z3 numbers every term
 * it has ever seen in a context, and its simplifier and SMT core order terms
 * and case splits by those numbers. In one context shared by a whole grading
 * run, the same query text was decided in 0.2 s or ran into the 5 s budget
 * of a combined refinement query depending on which answers came before it
 * (sys_alloc_port in the corpus, perf/corpus). In a fresh context a query's
 * course depends on its text alone, wherever and after whatever it runs.
 * Creating and deleting one costs about 1 ms here.
 *
 * A sat query's model outlives its context: it is translated into the home
 * context, where it stays readable until disposed, so that a kept model (a
 * counterexample, an implementation's refutation) holds a model and not a
 * whole context (a few hundred held contexts exhaust the 2 GiB WASM heap).
 *
 * Reference counting: in a context made by `mk_context_rc`, an object nobody
 * holds a reference to may be freed by the next call. Every object is
 * `inc_ref`ed by the call right after the one that made it, and released
 * when it is no longer needed.
 */
import type { Z3Core, Z3_ast, Z3_context, Z3_func_decl, Z3_model, Z3_solver, Z3_sort, Z3_tactic } from 'z3-solver';
import type { Value } from './eval.ts';
import { BOOL, type FuncDecl } from './term.ts';

/** Z3_lbool's values. */
const L_TRUE = 1;
const L_FALSE = -1;

/** A context, its error checks and its end. */
export class NativeContext {
  readonly ptr: Z3_context;

  constructor(readonly api: Z3Core) {
    const cfg = api.mk_config();
    this.ptr = api.mk_context_rc(cfg);
    api.del_config(cfg);
  }

  /** `value`, unless the last call on this context set an error: then that error. */
  ok<T>(value: T): T {
    const code = this.api.get_error_code(this.ptr);
    if (code !== 0) throw new Error(`Z3: ${this.api.get_error_msg(this.ptr, code)}`);
    return value;
  }

  delete(): void {
    this.api.del_context(this.ptr);
  }
}

/**
 * A solver for one query, in a fresh context: `tactics` in sequence, or Z3's
 * default solver if none; limited by `timeoutMs` (wall-clock time) and by
 * `rlimit` (Z3's count of its own steps, the same on any machine and load).
 */
export class QuerySolver {
  readonly context: NativeContext;
  private readonly solver: Z3_solver;
  private readonly release: Array<() => void> = [];

  constructor(api: Z3Core, tactics: readonly string[], timeoutMs: number | undefined, rlimit?: number) {
    const c = (this.context = new NativeContext(api));
    const p = c.ptr;
    try {
      if (tactics.length === 0) this.solver = c.ok(api.mk_solver(p));
      else {
        let t = this.tactic(tactics[0]);
        for (const name of tactics.slice(1)) t = this.held(c.ok(api.tactic_and_then(p, t, this.tactic(name))));
        this.solver = c.ok(api.mk_solver_from_tactic(p, t));
      }
      api.solver_inc_ref(p, this.solver);
      const solver = this.solver;
      this.release.unshift(() => api.solver_dec_ref(p, solver));
      const limits: [string, number][] = [];
      if (timeoutMs && timeoutMs > 0) limits.push(['timeout', Math.round(timeoutMs)]);
      if (rlimit && rlimit > 0) limits.push(['rlimit', Math.round(rlimit)]);
      if (limits.length > 0) {
        const params = api.mk_params(p);
        api.params_inc_ref(p, params);
        for (const [name, value] of limits) c.ok(api.params_set_uint(p, params, api.mk_string_symbol(p, name), value));
        c.ok(api.solver_set_params(p, this.solver, params));
        api.params_dec_ref(p, params);
      }
    } catch (e) {
      this.delete();
      throw e;
    }
  }

  private tactic(name: string) {
    return this.held(this.context.ok(this.context.api.mk_tactic(this.context.ptr, name)));
  }

  private held(t: Z3_tactic): Z3_tactic {
    const { api, ptr } = this.context;
    api.tactic_inc_ref(ptr, t);
    this.release.unshift(() => api.tactic_dec_ref(ptr, t));
    return t;
  }

  /** Asserts an SMT-LIB script (a parse error throws). */
  assert(script: string): void {
    this.context.api.solver_from_string(this.context.ptr, this.solver, script);
    this.context.ok(undefined);
  }

  /** Runs the check on Z3's thread. */
  async check(): Promise<'sat' | 'unsat' | 'unknown'> {
    const r = this.context.ok(await this.context.api.solver_check(this.context.ptr, this.solver));
    return r === L_TRUE ? 'sat' : r === L_FALSE ? 'unsat' : 'unknown';
  }

  reasonUnknown(): string {
    return this.context.ok(this.context.api.solver_get_reason_unknown(this.context.ptr, this.solver));
  }

  /** The model of a sat check, translated into `home`. */
  modelIn(home: NativeContext): Z3_model {
    const { api, ptr } = this.context;
    const m = this.context.ok(api.solver_get_model(ptr, this.solver));
    api.model_inc_ref(ptr, m);
    try {
      const moved = api.model_translate(ptr, m, home.ptr);
      api.model_inc_ref(home.ptr, moved);
      return home.ok(this.context.ok(moved));
    } finally {
      api.model_dec_ref(ptr, m);
    }
  }

  /** Releases the solver and deletes the context (and everything in it). */
  delete(): void {
    for (const r of this.release.splice(0)) r();
    this.context.delete();
  }
}

/**
 * A model in the home context, read one constant or application at a time.
 * `idle` throws if a check is running (Z3 calls must not overlap one).
 */
export class HomeModel {
  private readonly decls = new Map<string, Z3_func_decl>();
  private disposed = false;

  constructor(
    private readonly home: NativeContext,
    private readonly sorts: HomeSorts,
    private readonly model: Z3_model,
    private readonly idle: () => void,
  ) {}

  constant(name: string, sort: number): Value {
    const { api, ptr } = this.home;
    this.idle();
    const c = this.hold(this.home.ok(api.mk_const(ptr, api.mk_string_symbol(ptr, name), this.sorts.get(sort))));
    try {
      return this.evaluate(c, sort);
    } finally {
      api.dec_ref(ptr, c);
    }
  }

  apply(decl: FuncDecl, args: readonly Value[]): Value {
    const { api, ptr } = this.home;
    this.idle();
    const f = this.declaration(decl);
    const made: Z3_ast[] = [];
    try {
      for (const [i, a] of args.entries()) {
        const s = decl.domain[i];
        made.push(this.hold(this.home.ok(s === BOOL ? (a ? api.mk_true(ptr) : api.mk_false(ptr)) : api.mk_numeral(ptr, String(a), this.sorts.get(s)))));
      }
      const app = this.hold(this.home.ok(api.mk_app(ptr, f, made)));
      made.push(app);
      return this.evaluate(app, decl.range);
    } finally {
      for (const a of made) api.dec_ref(ptr, a);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const { api, ptr } = this.home;
    for (const f of this.decls.values()) api.dec_ref(ptr, api.func_decl_to_ast(ptr, f));
    this.decls.clear();
    api.model_dec_ref(ptr, this.model);
  }

  private hold(a: Z3_ast): Z3_ast {
    this.home.api.inc_ref(this.home.ptr, a);
    return a;
  }

  private declaration(decl: FuncDecl): Z3_func_decl {
    const hit = this.decls.get(decl.name);
    if (hit !== undefined) return hit;
    const { api, ptr } = this.home;
    const f = this.home.ok(api.mk_func_decl(ptr, api.mk_string_symbol(ptr, decl.name), decl.domain.map((s) => this.sorts.get(s)), this.sorts.get(decl.range)));
    api.inc_ref(ptr, api.func_decl_to_ast(ptr, f));
    this.decls.set(decl.name, f);
    return f;
  }

  /** The model's value of `t` (model completion on: every symbol has one). */
  private evaluate(t: Z3_ast, sort: number): Value {
    const { api, ptr } = this.home;
    const v = this.home.ok(api.model_eval(ptr, this.model, t, true));
    if (v === null) return sort === BOOL ? false : 0n;
    api.inc_ref(ptr, v);
    try {
      if (sort === BOOL) return api.get_bool_value(ptr, v) === L_TRUE;
      return api.is_numeral_ast(ptr, v) ? BigInt(api.get_numeral_string(ptr, v)) : 0n;
    } finally {
      api.dec_ref(ptr, v);
    }
  }
}

/** The home context's sorts (Bool and each bit-vector width), made once and held. */
export class HomeSorts {
  private readonly sorts = new Map<number, Z3_sort>();

  constructor(private readonly home: NativeContext) {}

  get(sort: number): Z3_sort {
    const hit = this.sorts.get(sort);
    if (hit !== undefined) return hit;
    const { api, ptr } = this.home;
    const s = this.home.ok(sort === BOOL ? api.mk_bool_sort(ptr) : api.mk_bv_sort(ptr, sort));
    api.inc_ref(ptr, api.sort_to_ast(ptr, s));
    this.sorts.set(sort, s);
    return s;
  }
}
