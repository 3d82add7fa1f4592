/**
 * The Z3 facade. It takes an initialised z3-solver API (Node or browser
 * loading is the caller's business), checks a set of assertions with a fresh
 * solver per query and a timeout, and exposes a model as an
 * `Interpretation` our own evaluator can use.
 *
 * A fresh `Solver('QF_AUFBV')` per query matters: push/pop or a second
 * check() on one solver switch Z3 to its incremental engine, which is 20-200x
 * slower on these problems.
 */
import type { Z3HighLevel } from 'z3-solver';
import type { Interpretation, Value } from './eval.ts';
import { type FinalizerGate, finalizerGate } from './finalizer-gate.ts';
import { toSmtLib } from './smtlib.ts';
import { eq } from './ops.ts';
import { BOOL, type FuncDecl, type Term, bvConst, variable } from './term.ts';

type Ctx = ReturnType<Z3HighLevel['Context']>;

export type CheckResult =
  | { readonly status: 'unsat'; readonly ms: number }
  | { readonly status: 'sat'; readonly ms: number; readonly model: SmtModel }
  | { readonly status: 'unknown'; readonly ms: number; readonly reason: string };

/** A satisfying assignment, readable until `dispose()`. */
export interface SmtModel extends Interpretation {
  dispose(): void;
}

export interface CheckOptions {
  /**
   * Per-query solver timeout in milliseconds (0 = none). The caller derives
   * it from what is left of its verification budget (verify/prove.ts); a
   * check that overruns it is interrupted shortly after.
   */
  readonly timeoutMs?: number;
  /**
   * Run Z3's solve-eqs before its SMT core (default true). It pays on
   * refinement's queries, which equate the two sides' states field by
   * field (7% faster with it on the oracles' queries); on the declarative
   * checks' queries its variable elimination costs more than it saves
   * (16% slower with it on the corpus's near misses), so they turn it off.
   */
  readonly solveEqs?: boolean;
}

export interface SmtEngine {
  /** Is the conjunction of `assertions` satisfiable? */
  check(assertions: readonly Term[], options?: CheckOptions): Promise<CheckResult>;
  /** The SMT-LIB text of a query, for debugging and export. */
  dump(assertions: readonly Term[]): string;
  /** Stops the running check, if any (it then returns unknown). */
  interrupt(): void;
  /**
   * Runs `job` with the engine to itself. Z3 contexts are not thread-safe and
   * a check runs on a pthread: any other Z3 call at the same time (a model
   * read, another check) corrupts the WASM heap. Every top-level job that
   * issues queries (one verification, one lemma check) runs inside this.
   * Not re-entrant: never call it from inside a job.
   */
  exclusive<T>(job: () => Promise<T>): Promise<T>;
}

/**
 * How long after the interrupt before the engine is declared dead (and the
 * most a check may run past its timeout before it is interrupted).
 */
const WATCHDOG_GRACE_MS = 10_000;

/**
 * How long past its timeout a check may run before it is interrupted. Z3
 * checks its timeout between steps and some steps are long; without the
 * interrupt a check could overrun the verification's budget by seconds.
 */
const INTERRUPT_AFTER_MS = 300;

/** Z3 stopped answering: every later check on this engine fails with this. */
export class EngineDeadError extends Error {
  constructor(ms: number) {
    super(`Z3 stopped responding: a query ran ${ms} ms, past its timeout, and did not stop when interrupted; restart the verifier`);
    this.name = 'EngineDeadError';
  }
}

/**
 * Runs two trivial checks, one of them with a timeout. The first checks of an
 * engine start Z3's threads (the check's own and its timer's), which took
 * 1-3 s here; done up front, that start-up is not charged to the first
 * verification's budget.
 */
export async function warmUp(engine: SmtEngine): Promise<void> {
  await engine.exclusive(async () => {
    const x = variable('warm-up', 8);
    await engine.check([eq(x, bvConst(1n, 8))]);
    await engine.check([eq(x, bvConst(2n, 8))], { timeoutMs: 60_000 });
  });
}

function hasQuantifier(ts: readonly Term[]): boolean {
  const seen = new Set<number>();
  const stack = [...ts];
  while (stack.length) {
    const t = stack.pop()!;
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    if (t.op === 'forall' || t.op === 'exists') return true;
    for (const a of t.args) stack.push(a);
  }
  return false;
}

/**
 * Wraps an initialised z3-solver module. Pass the whole `init()` result: its
 * low-level `Z3` object is where the finalizer gate is installed (without it,
 * a garbage collection during a check can corrupt Z3's heap).
 */
export function createEngine(
  z3: Pick<Z3HighLevel, 'Context'> & { readonly Z3: object },
  contextName = 'osvlab',
  { watchdogGraceMs = WATCHDOG_GRACE_MS }: { readonly watchdogGraceMs?: number } = {},
): SmtEngine {
  const ctx: Ctx = z3.Context(contextName);
  const gate: FinalizerGate = finalizerGate(z3.Z3);
  let inFlight = false;
  let dead: EngineDeadError | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const idle = (what: string) => {
    if (inFlight) throw new Error(`internal error: ${what} while a Z3 query is running (queries must not overlap)`);
  };

  const sortOf = (s: number) => (s === BOOL ? ctx.Bool.sort() : ctx.BitVec.sort(s));
  const valueOf = (e: unknown, sort: number): Value => {
    if (sort === BOOL) {
      if (ctx.isTrue(e as never)) return true;
      if (ctx.isFalse(e as never)) return false;
      return false;
    }
    if (ctx.isBitVecVal(e as never)) return (e as { value(): bigint }).value();
    return 0n;
  };

  return {
    dump(assertions) {
      return toSmtLib(assertions).text + '\n(check-sat)\n';
    },

    interrupt() {
      ctx.interrupt();
    },

    exclusive<T>(job: () => Promise<T>): Promise<T> {
      const run = queue.then(job, job);
      queue = run.catch(() => undefined);
      return run;
    },

    async check(assertions, options = {}) {
      if (dead) throw dead;
      idle('a second query started');
      inFlight = true;
      try {
        return await checkNow(assertions, options);
      } finally {
        inFlight = false;
      }
    },
  };

  /**
   * A check whose pthread died (a crashed Z3) never settles and would hang
   * every caller. Past its timeout plus a grace period it is interrupted; if
   * even that does not end it, the engine is dead. The gate stays held (the
   * native side may still be running), so no frees touch its heap.
   */
  function watched<T>(check: Promise<T>, timeoutMs: number, started: number): Promise<T> {
    if (!(timeoutMs > 0)) return check;
    return new Promise<T>((resolve, reject) => {
      let timer = setTimeout(() => {
        ctx.interrupt();
        timer = setTimeout(() => {
          dead = new EngineDeadError(Date.now() - started);
          reject(dead);
        }, watchdogGraceMs);
      }, timeoutMs + Math.min(INTERRUPT_AFTER_MS, watchdogGraceMs));
      check.then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (e) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
  }

  async function checkNow(assertions: readonly Term[], options: CheckOptions): Promise<CheckResult> {
    const started = Date.now();
    const script = toSmtLib(assertions);
    // Z3's default strategy for these logics bit-blasts after Ackermannising
    // the uninterpreted functions; our queries are small but full of UF
    // applications at 64-bit indices, and the SMT core (lazy congruence,
    // bit-vector theory on demand) decides them 20-50x faster here.
    const solver = hasQuantifier(assertions)
      ? new ctx.Solver()
      : options.solveEqs === false
        ? ctx.AndThen('simplify', 'smt').solver()
        : ctx.AndThen('simplify', 'solve-eqs', 'smt').solver();
    if (options.timeoutMs && options.timeoutMs > 0) solver.set('timeout', Math.round(options.timeoutMs));
    solver.fromString(script.text);
    const status = await watched(gate.hold(() => solver.check()), options.timeoutMs ?? 0, started);
    const ms = Date.now() - started;
    // Z3's memory lives in the WASM heap, which the JS garbage collector does
    // not see: release solvers and models explicitly so a long grading run
    // does not grow the (fixed-size) heap.
    if (status === 'unsat') {
      solver.release();
      return { status, ms };
    }
    if (status === 'unknown') {
      const reason = solver.reasonUnknown();
      solver.release();
      return { status, ms, reason };
    }

    const model = solver.model();
    let disposed = false;
    const consts = new Map<string, Value>();
    const apps = new Map<string, Value>();
    const decls = new Map<string, ReturnType<Ctx['Function']['declare']>>();
    const smtModel: SmtModel = {
      constant(name, sort) {
        idle('a model was read');
        const hit = consts.get(name);
        if (hit !== undefined) return hit;
        const c = sort === BOOL ? ctx.Bool.const(name) : ctx.BitVec.const(name, sort);
        const v = valueOf(model.eval(c, true), sort);
        consts.set(name, v);
        return v;
      },
      apply(decl: FuncDecl, args: Value[]) {
        idle('a model was read');
        const k = `${decl.name}(${args.join(',')})`;
        const hit = apps.get(k);
        if (hit !== undefined) return hit;
        let f = decls.get(decl.name);
        if (!f) {
          f = ctx.Function.declare(decl.name, ...(decl.domain.map(sortOf) as [never]), sortOf(decl.range) as never);
          decls.set(decl.name, f);
        }
        const zargs = args.map((a, i) =>
          decl.domain[i] === BOOL ? ctx.Bool.val(a as boolean) : ctx.BitVec.val(a as bigint, decl.domain[i]),
        );
        const v = valueOf(model.eval((f.call as (...a: unknown[]) => never)(...zargs), true), decl.range);
        apps.set(k, v);
        return v;
      },
      dispose() {
        if (disposed) return;
        disposed = true;
        consts.clear();
        apps.clear();
        model.release();
        solver.release();
      },
    };
    return { status, ms, model: smtModel };
  }
}
