/**
 * The verifier worker: Z3 (WASM, with its own pthreads) plus the pure core
 * library, exposed to the page over Comlink as `VerifierApi`. One worker owns
 * one Z3 context, initialised once on first use; the page's pool stops a
 * runaway proof by terminating the whole worker.
 *
 * `core/verify` and `core/spec` are being written in parallel; they are found
 * with `import.meta.glob`, so this worker picks them up in the first build
 * that contains them and says plainly what is missing until then.
 */
import * as Comlink from 'comlink';
import type { Diagnostic } from '../core/span.ts';
import * as o from '../core/smt/ops.ts';
import { evaluate } from '../core/smt/eval.ts';
import { createEngine, type SmtEngine } from '../core/smt/solver.ts';
import { bvConst, variable } from '../core/smt/term.ts';
import type { Verdict } from '../core/verify/verdict.ts';
import type {
  Capabilities,
  CatalogEntry,
  ReadyInfo,
  SelfTestResult,
  SpecModule,
  VerifierApi,
  VerifyFn,
  VerifyRequest,
  GradeFn,
  GradeOptions,
} from './contract.ts';
import type { GradeResult } from '../core/bench/grade-types.ts';
import type { Task } from '../core/bench/task.ts';
import { loadZ3 } from './z3-browser.ts';

type VerifyModule = { verify: VerifyFn; loadProgram?: () => unknown };

const verifyModules = import.meta.glob<VerifyModule>('../core/verify/index.ts');
const specModules = import.meta.glob<SpecModule>('../core/spec/index.ts');
const gradeModules = import.meta.glob<{ gradeResponse: GradeFn }>('../core/bench/grade.ts');

function optional<T>(mods: Record<string, () => Promise<T>>): Promise<T | undefined> {
  const load = Object.values(mods)[0];
  return load ? load() : Promise.resolve(undefined);
}

const verifyModule = () => optional(verifyModules);
const specModule = () => optional(specModules);

let engine: Promise<SmtEngine> | undefined;
let initMs = 0;

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

function capabilities(): Capabilities {
  return {
    verifier: Object.keys(verifyModules).length > 0,
    checker: Object.keys(specModules).length > 0,
  };
}

function notLanded(what: string): Verdict {
  return {
    status: 'unknown',
    reason: `${what} is not part of this build yet, so no verdict can be computed.`,
    obligations: [],
  };
}

const api: VerifierApi = {
  async init(): Promise<ReadyInfo> {
    await getEngine();
    // Parse the kernel now rather than on the first Verify (about half a second).
    const mod = await verifyModule();
    try {
      mod?.loadProgram?.();
    } catch {
      // A kernel that does not compile is reported by verify() itself.
    }
    return { z3: true, initMs, isolated: self.crossOriginIsolated === true, capabilities: capabilities() };
  },

  async capabilities() {
    return capabilities();
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

  async verify(req: VerifyRequest): Promise<Verdict> {
    const mod = await verifyModule();
    if (!mod) {
      // Prove the worker stack still works end to end, then say what is missing.
      await getEngine();
      return notLanded('The refinement verifier (core/verify)');
    }
    return mod.verify(req, { engine: await getEngine() });
  },

  async grade(task: Task, response: string, options: GradeOptions): Promise<GradeResult> {
    const mod = await optional(gradeModules);
    if (!mod) throw new Error('The grader (core/bench/grade.ts) is not part of this build yet.');
    return mod.gradeResponse(task, response, { engine: await getEngine(), timeoutMs: options.timeoutMs, variants: options.variants });
  },

  async check(source: string, handler: string): Promise<Diagnostic[]> {
    const mod = await specModule();
    return mod ? mod.checkSpec(source, handler) : [];
  },

  async catalog(): Promise<CatalogEntry[]> {
    const mod = await specModule();
    return mod ? mod.dialectCatalog() : [];
  },
};

Comlink.expose(api);
