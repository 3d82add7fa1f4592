/**
 * The Z3 facade. It takes an initialised z3-solver API (Node or browser
 * loading is the caller's business), checks a set of assertions with a fresh
 * solver per query and a timeout, and exposes a model as an
 * `Interpretation` our own evaluator can use.
 *
 * A fresh solver per query matters: push/pop or a second check() on one
 * solver switch Z3 to its incremental engine, which is 20-200x slower on
 * these problems. Each query also gets a fresh context (native.ts says why).
 */
import type { Z3Core } from 'z3-solver';
import type { Interpretation } from './eval.ts';
import { type FinalizerGate, finalizerGate } from './finalizer-gate.ts';
import { HomeModel, HomeSorts, NativeContext, QuerySolver } from './native.ts';
import { toSmtLib } from './smtlib.ts';
import { eachSubterm } from './subterms.ts';
import { phaseClock } from '../phases.ts';
import { eq } from './ops.ts';
import { type Term, bvConst, variable } from './term.ts';

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
  /**
   * Z3's resource limit for the query (its `rlimit`: a count of the
   * solver's own steps, so the same query stops at the same point on any
   * machine and under any load; 0 or absent: none). A query that reaches
   * it is unknown ("canceled"), as one that reaches its timeout.
   */
  readonly rlimit?: number;
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
  return eachSubterm(ts, (t) => t.op === 'forall' || t.op === 'exists');
}

/**
 * Wraps an initialised z3-solver module (the `init()` result, or anything
 * with its low-level `Z3` object). The finalizer gate is installed on that
 * object: without it, a garbage collection during a check can corrupt Z3's
 * heap (z3-solver's high-level API, which the page may use, frees from
 * finalizers).
 */
export function createEngine(z3: { readonly Z3: Z3Core }, { watchdogGraceMs = WATCHDOG_GRACE_MS }: { readonly watchdogGraceMs?: number } = {}): SmtEngine {
  const api = z3.Z3;
  const gate: FinalizerGate = finalizerGate(api);
  const home = new NativeContext(api);
  const sorts = new HomeSorts(home);
  let running: QuerySolver | undefined;
  let inFlight = false;
  let dead: EngineDeadError | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const idle = (what: string) => {
    if (inFlight) throw new Error(`internal error: ${what} while a Z3 query is running (queries must not overlap)`);
  };

  return {
    dump(assertions) {
      return toSmtLib(assertions).text + '\n(check-sat)\n';
    },

    interrupt() {
      if (running) api.interrupt(running.context.ptr);
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
        return await phaseClock.timedAsync('solver', () => checkNow(assertions, options));
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
        if (running) api.interrupt(running.context.ptr);
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
    const script = phaseClock.timed('smtlib', () => toSmtLib(assertions));
    // Z3's default strategy for these logics bit-blasts after Ackermannising
    // the uninterpreted functions; our queries are small but full of UF
    // applications at 64-bit indices, and the SMT core (lazy congruence,
    // bit-vector theory on demand) decides them 20-50x faster here.
    const tactics = hasQuantifier(assertions) ? [] : options.solveEqs === false ? ['simplify', 'smt'] : ['simplify', 'solve-eqs', 'smt'];
    const solver = new QuerySolver(api, tactics, options.timeoutMs, options.rlimit);
    running = solver;
    // A wedged check (see `watched`) keeps its context: the native side may still use it.
    let wedged = false;
    try {
      solver.assert(script.text);
      const status = await watched(gate.hold(() => solver.check()), options.timeoutMs ?? 0, started).catch((e: unknown) => {
        wedged = e instanceof EngineDeadError;
        throw e;
      });
      const ms = Date.now() - started;
      if (status === 'unsat') return { status, ms };
      if (status === 'unknown') return { status, ms, reason: solver.reasonUnknown() };
      const model = new HomeModel(home, sorts, solver.modelIn(home), () => idle('a model was read'));
      return { status, ms, model };
    } finally {
      running = undefined;
      // Z3's memory lives in the WASM heap, which the JS garbage collector
      // does not see: the query's context goes now, its model (if any)
      // lives on in the home context until disposed.
      if (!wedged) solver.delete();
    }
  }
}
