/**
 * The verifier worker: Z3 (WASM, with its own pthreads) plus the pure core
 * library, exposed to the page over Comlink as `VerifierApi`. One worker owns
 * one Z3 context, initialised once on first use; the page's pool stops a
 * runaway proof by terminating the whole worker. The pool's lint worker runs
 * the same script but only ever calls `check` and `catalog`, so it never
 * loads Z3.
 */
import * as Comlink from 'comlink';
import { gradeResponse, strictChecker } from '../core/bench/grade.ts';
import { GradeMemo } from '../core/bench/grade-memo.ts';
import type { GradeResult } from '../core/bench/grade-types.ts';
import type { Task } from '../core/tasks/task.ts';
import { evaluate } from '../core/smt/eval.ts';
import * as o from '../core/smt/ops.ts';
import { type SmtEngine, createEngine } from '../core/smt/solver.ts';
import { bvConst, variable } from '../core/smt/term.ts';
import type { Diagnostic } from '../core/span.ts';
import { checkSpec, dialectCatalog } from '../core/dialect/index.ts';
import { loadProgram, verify } from '../core/verify/index.ts';
import type { Verdict } from '../core/verify/verdict.ts';
import type { CatalogEntry, GradeOptions, ReadyInfo, SelfTestResult, VerifierApi, PageVerifyRequest } from './contract.ts';
import { loadZ3 } from './z3-browser.ts';

let engine: Promise<SmtEngine> | undefined;
let initMs = 0;
/** This worker's verdicts, reused when a run grades a spec it has graded before. */
const memo = new GradeMemo();

function getEngine(): Promise<SmtEngine> {
  engine ??= (async () => {
    const t0 = performance.now();
    const z3 = await loadZ3();
    const e = createEngine(z3);
    initMs = Math.round(performance.now() - t0);
    return e;
  })();
  engine.catch(() => (engine = undefined));
  return engine;
}

const api: VerifierApi = {
  async init(): Promise<ReadyInfo> {
    await getEngine();
    // Parse the kernel now rather than on the first Verify (about half a second).
    try {
      loadProgram();
    } catch {
      // A kernel that does not compile is reported by verify() itself.
    }
    return { z3: true, initMs, isolated: self.crossOriginIsolated === true };
  },

  async selfTest(): Promise<SelfTestResult> {
    const z3 = await getEngine();
    const t0 = performance.now();
    const x = variable('x', 64);
    const y = variable('y', 64);
    // Valid: x * 2 == x << 1 for every 64-bit x, so its negation is unsat.
    const valid = await z3.check([o.not(o.eq(o.mul(x, bvConst(2, 64)), o.shl(x, bvConst(1, 64))))]);
    // Satisfiable: a nontrivial factor pair of 391 (17 * 23) in 64 bits without overflow.
    const goal = o.and(
      o.eq(o.mul(x, y), bvConst(391, 64)),
      o.ugt(x, bvConst(1, 64)),
      o.ugt(y, bvConst(1, 64)),
      o.ult(x, bvConst(391, 64)),
      o.ult(y, bvConst(391, 64)),
    );
    const sat = await z3.check([goal]);
    let witness: string | undefined;
    let confirmed = false;
    if (sat.status === 'sat') {
      witness = String(sat.model.constant('x', 64));
      // Our own evaluator must agree with Z3's model.
      confirmed = evaluate(goal, sat.model) === true;
      sat.model.dispose();
    }
    return {
      ok: valid.status === 'unsat' && sat.status === 'sat' && confirmed,
      validity: valid.status,
      satisfiable: sat.status,
      witness,
      ms: Math.round(performance.now() - t0),
    };
  },

  async stress(seconds: number) {
    const z3 = await getEngine();
    // Factoring a product of two 31-bit primes in 62 bits: bit-blasted
    // multiplication makes this take Z3 far longer than any test waits.
    const x = variable('sx', 64);
    const y = variable('sy', 64);
    const n = 2147483629n * 2147483587n;
    const r = await z3.check(
      [
        o.eq(o.mul(x, y), bvConst(n, 64)),
        o.ugt(x, bvConst(1, 64)),
        o.ugt(y, bvConst(1, 64)),
        o.ult(x, bvConst(1n << 32n, 64)),
        o.ult(y, bvConst(1n << 32n, 64)),
      ],
      { timeoutMs: seconds * 1000 },
    );
    if (r.status === 'sat') r.model.dispose();
    return r.status;
  },

  async verify(req: PageVerifyRequest): Promise<Verdict> {
    // Only what core/verify takes: the task id is the page's business.
    return verify({ handler: req.handler, spec: req.spec, implSource: req.implSource, timeoutMs: req.timeoutMs, strict: req.strict }, { engine: await getEngine() });
  },

  async grade(task: Task, response: string, options: GradeOptions): Promise<GradeResult> {
    const engine = await getEngine();
    const strictCheck = options.strict ? strictChecker(engine, options.timeoutMs) : undefined;
    return gradeResponse(task, response, { engine, timeoutMs: options.timeoutMs, variants: options.variants, strictCheck, memo });
  },

  async check(source: string, handler: string): Promise<Diagnostic[]> {
    return checkSpec(source, handler);
  },

  async catalog(): Promise<CatalogEntry[]> {
    return dialectCatalog();
  },
};

Comlink.expose(api);
