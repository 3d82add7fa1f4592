/**
 * What every verifier worker serves (`VerifierApi`): the page's Web Workers
 * (src/worker/verifier.worker.ts) and the CLI's worker threads
 * (src/cli/grade-worker-impl.ts) expose this same object over Comlink and
 * differ only in how they load Z3. A worker loads Z3 once, on first use, and
 * each query runs in a Z3 context of its own (src/core/smt/native.ts); the
 * pool stops a runaway proof by terminating the whole worker.
 * `check` and `catalog` never load Z3, so the page's lint worker, which only
 * calls those, stays light. `verifyWithoutSolver` never waits for it: it
 * answers a verification that takes no query while Z3's wasm still compiles
 * (solver-free.ts); nor does `agentRun`, which needs the parsed kernel (the
 * start's first step, `init`) and no solver.
 *
 * Every method first loads the Unicode name filter when a string of its
 * request holds `\N{` (the one place the worker awaits it; the filter is
 * not in the worker's first code: docs/design.md, "The worker's first code").
 */
import type { RunToolRequest } from '../eval/agent/run-tool.ts';
import { GradeMemo } from '../eval/grade/grade-memo.ts';
import { gradeSpec } from '../eval/grade/grade.ts';
import type { GradeOptions, GradeResult } from '../eval/grade/grade-types.ts';
import { lintSpec, dialectCatalog } from '../dialect/index.ts';
import { loadNameFilter, mayNeedNameFilter } from '../dialect/unicode-names.ts';
import { evaluate } from '../smt/eval.ts';
import * as o from '../smt/ops.ts';
import type { SmtEngine } from '../smt/solver.ts';
import { bvConst, variable } from '../smt/term.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { type ShippedProgram, loadShippedForm } from '../kernel/program.ts';
import type { Task } from '../tasks/task.ts';
import { proveSpecLemmas } from '../verify/declarative.ts';
import { type DiffRequest, diffSpecs } from '../verify/equivalence.ts';
import { VerifierCaches, type VerifyEnv, type VerifyRequest, loadProgram, verify } from '../verify/index.ts';
import type { Verdict } from '../verify/verdict.ts';
import { PHASES, type PhaseTimes, phaseClock } from '../phases.ts';
import { type Serial, serial } from '../pool/serial.ts';
import type { CatalogEntry, LemmaOptions, ReadyInfo, SelfTestResult, VerifierApi, WorkerClock, WorkerTimings, Z3LoadSteps } from './contract.ts';
import { solverFreeEngine } from './solver-free.ts';

export interface WorkerPlatform {
  /** Loads Z3 and wraps it in our engine; called again after a failure. */
  readonly loadEngine: () => Promise<SmtEngine>;
  /** The first checks that start Z3's threads (`VerifierApi.warmUp`), where the platform does not make them in `loadEngine`. */
  readonly warmUp?: (engine: SmtEngine) => Promise<void>;
  /** Can Z3 start its threads here (a cross-origin isolated page; always in Node)? */
  readonly isolated: () => boolean;
  /** The memory the loaded Z3 runs in, when the platform chooses it. */
  readonly memory?: () => { readonly mib: number; readonly capped: boolean; readonly threads: boolean } | undefined;
  /** How long each step of loading Z3 took, when the platform measures it. */
  readonly loadSteps?: () => Z3LoadSteps | undefined;
  /** When this worker was created (ms since the epoch; `performance.timeOrigin` in a browser), where the platform knows. */
  readonly origin?: number;
  /** Milliseconds since the epoch, as finely as the platform measures (`performance.timeOrigin + performance.now()`; default `Date.now`). */
  readonly now?: () => number;
  /** The kernel's shipped program form, where the platform has it with its own code (else kernel/program.ts imports it). */
  readonly kernelForm?: () => Promise<ShippedProgram>;
}

/** The worker's API over `platform`'s Z3. */
export function serveVerifier(platform: WorkerPlatform): VerifierApi {
  const now = platform.now ?? (() => Date.now());
  /** What the first verdict waited for in this worker (`timings`). */
  const timings: { -readonly [K in keyof WorkerTimings]: WorkerTimings[K] } = { started: now(), ...(platform.origin === undefined ? {} : { created: platform.origin }) };
  let engine: Promise<SmtEngine> | undefined;
  let initMs = 0;
  /** This worker's verdicts, reused when it grades a spec it has graded before. */
  const memo = new GradeMemo();
  /** What this worker's verifier keeps between verifications: built once, for every request it serves. */
  const caches = new VerifierCaches();
  /**
   * The kernel's program as `npm run bundle` made it (kernel/program.ts), loaded
   * on the first call that verifies, never by the lint worker: each such call
   * waits for it, so the kernel is read from it rather than parsed.
   */
  let kernelForm: Promise<unknown> | undefined;
  const kernelReady = () => (kernelForm ??= loadShippedForm(platform.kernelForm));
  const env = async (): Promise<VerifyEnv> => {
    await kernelReady();
    return { engine: await getEngine(), caches };
  };
  /** One job at a time over these caches, with Z3 or without (`verifyWithoutSolver`). */
  const jobs = serial();
  const solverFree: VerifyEnv = { engine: solverFreeEngine(jobs), caches, solverFree: true };
  /** While the phase clock runs, when each grade request arrived and was answered (`clock`). */
  let requests: { arrived: number; answered: number }[] | undefined;

  function getEngine(): Promise<SmtEngine> {
    engine ??= (async () => {
      const t0 = Date.now();
      const e = await platform.loadEngine();
      initMs = Date.now() - t0;
      return onQueue(e, jobs);
    })();
    engine.catch(() => (engine = undefined));
    return engine;
  }

  /** The warm-up, once it has begun (begun again after a failure). */
  let warming: Promise<void> | undefined;

  /** What `init` answers, as things stand. */
  function readyInfo(): ReadyInfo {
    const memory = platform.memory?.();
    const steps = platform.loadSteps?.();
    return { z3: true, initMs, isolated: platform.isolated(), ...(memory ? { memoryMiB: memory.mib, memoryCapped: memory.capped, threads: memory.threads } : {}), ...(steps ? { steps } : {}) };
  }

  /** The kernel read into its symbolic form, once per worker (`VerifierApi.prepare`). */
  let prepared: Promise<void> | undefined;

  /**
   * Reads the kernel into its symbolic form, once per worker: as soon as the worker's code is in
   * (`VerifierApi.prepare`), else at `init`. Its time includes loading the kernel's shipped form.
   */
  function prepare(): Promise<void> {
    prepared ??= (async () => {
      const start = now();
      try {
        await kernelReady();
        loadProgram(caches);
        timings.kernel = { start, end: now() };
      } catch {
        // A kernel that does not compile is reported by verify() itself.
      }
    })();
    return prepared;
  }

  async function init(): Promise<ReadyInfo> {
    const loading = getEngine();
    loading.catch(() => undefined);
    // Read the kernel now (unless `prepare` has) rather than on the first Verify, and while Z3's wasm downloads
    // and compiles (off this thread) rather than after: the first verdict waited for it (docs/app.md, "Loading Z3").
    await prepare();
    await loading;
    return readyInfo();
  }

  /** What `foresee` began, by request, until the page asks for it. */
  const foreseen = new Map<string, Promise<Verdict | null>>();

  /** A verification that takes no query (`verifyWithoutSolver`), timed for `timings`. */
  async function withoutSolver(req: VerifyRequest): Promise<Verdict | null> {
    // Its phases, on the worker's phase clock (started for this call unless a benchmark runs it already).
    const own = !phaseClock.running;
    if (own) phaseClock.start(now);
    const before = phaseClock.read();
    const start = now();
    try {
      await kernelReady();
      const v = await verify(req, solverFree);
      // Undecided without a query (a budget spent before it asked): Z3 decides.
      return v.status === 'timeout' || v.status === 'unknown' ? null : v;
    } catch {
      // It needs Z3 (SolverNeededError), or it fails: the verification with Z3 says which, as it always has.
      return null;
    } finally {
      const after = own ? phaseClock.stop() : phaseClock.read();
      const phases = Object.fromEntries(PHASES.map((p) => [p, after[p] - before[p]])) as PhaseTimes;
      timings.withoutSolver = { start, end: now(), phases };
    }
  }

  return withNameFilter({
    init,

    prepare(): Promise<void> {
      return prepare();
    },

    async warmUp(): Promise<ReadyInfo> {
      const engine = await getEngine();
      const start = platform.warmUp;
      if (start) {
        warming ??= start(engine);
        warming.catch(() => (warming = undefined));
        await warming;
      }
      return readyInfo();
    },

    async selfTest(): Promise<SelfTestResult> {
      const z3 = await getEngine();
      const t0 = Date.now();
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
        ms: Date.now() - t0,
      };
    },

    async stress(seconds: number) {
      const z3 = await getEngine();
      // Factoring a product of two primes (2^63 - 25 and 2^61 - 1) in 128
      // bits: bit-blasted multiplication makes this take Z3 far longer than
      // any test waits. (Two 31-bit primes in 64 bits were not enough: with
      // the faster glue, Z3 sometimes found the factors in 4 s.)
      const x = variable('sx', 128);
      const y = variable('sy', 128);
      const n = 9223372036854775783n * 2305843009213693951n;
      const r = await z3.check(
        [
          o.eq(o.mul(x, y), bvConst(n, 128)),
          o.ugt(x, bvConst(1, 128)),
          o.ugt(y, bvConst(1, 128)),
          o.ult(x, bvConst(1n << 64n, 128)),
          o.ult(y, bvConst(1n << 64n, 128)),
        ],
        { timeoutMs: seconds * 1000 },
      );
      if (r.status === 'sat') r.model.dispose();
      return r.status;
    },

    async verify(req: VerifyRequest): Promise<Verdict> {
      return verify(req, await env());
    },

    async verifyWithoutSolver(req: VerifyRequest): Promise<Verdict | null> {
      const key = requestKey(req);
      const seen = foreseen.get(key);
      if (seen) {
        foreseen.delete(key);
        return seen;
      }
      return withoutSolver(req);
    },

    async foresee(req: VerifyRequest): Promise<void> {
      const key = requestKey(req);
      if (foreseen.has(key)) return;
      const verdict = prepare().then(() => withoutSolver(req));
      foreseen.set(key, verdict);
      await verdict;
    },

    async timings(): Promise<WorkerTimings> {
      return { ...timings };
    },

    async diff(req: DiffRequest) {
      return diffSpecs(req, await env());
    },

    async lemmas(handler: string, spec: string, options: LemmaOptions) {
      return proveSpecLemmas(handler, spec, await env(), { timeoutMs: options.timeoutMs, only: options.only, reuse: options.reuse });
    },

    async grade(task: Task, spec: string, options: GradeOptions): Promise<GradeResult> {
      const timed = requests;
      const arrived = timed ? now() : 0;
      try {
        // In this worker's environment (its engine and the caches it built once), with its grade memo.
        return await gradeSpec(task, spec, { ...(await env()), ...options, memo });
      } finally {
        timed?.push({ arrived, answered: now() });
      }
    },

    agentRun(req: RunToolRequest) {
      // Its code is loaded by the first call (docs/design.md, "The worker's first code"), meanwhile the job waits its turn.
      // On the worker's queue: its caches (the parsed kernel, the implementation's symbolic runs) are the verifier's.
      const code = import('../eval/agent/run-tool.ts');
      return jobs(async () => {
        await kernelReady();
        return (await code).answerRun(req, caches, now);
      });
    },

    async clock(run: boolean): Promise<WorkerClock> {
      const measured: WorkerClock = { phases: phaseClock.read(), requests: requests ?? [] };
      if (run) {
        phaseClock.start(now);
        requests = [];
      } else {
        phaseClock.stop();
        requests = undefined;
      }
      return measured;
    },

    async check(source: string, handler: string): Promise<Diagnostic[]> {
      return lintSpec(source, handler);
    },

    async catalog(): Promise<CatalogEntry[]> {
      return dialectCatalog();
    },
  });
}

/**
 * `api` whose every method first loads the Unicode name filter when its
 * arguments hold text that may need it (`mayNeedNameFilter`): a spec, a
 * diff's two specs, a task's, an agent's request. Looking at every string
 * of every request, rather than at the spec argument of each method, keeps
 * a method added later from lexing an escape with the filter unloaded.
 */
function withNameFilter<T extends object>(api: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(api)) {
    out[name] = (...args: unknown[]) => (holdsText(args, mayNeedNameFilter) ? loadNameFilter().then(() => method(...args)) : method(...args));
  }
  return out as T;
}

/** Whether some string in `value` (through arrays and plain objects, each once) passes `test`. */
function holdsText(value: unknown, test: (text: string) => boolean, seen = new Set<object>()): boolean {
  if (typeof value === 'string') return test(value);
  if (typeof value !== 'object' || value === null || seen.has(value)) return false;
  seen.add(value);
  const items = Array.isArray(value) ? value : value instanceof Map ? [...value.keys(), ...value.values()] : Object.values(value);
  return items.some((v) => holdsText(v, test, seen));
}

/** `engine` with its jobs on `exclusive` instead of its own queue. */
function onQueue(engine: SmtEngine, exclusive: Serial): SmtEngine {
  return {
    check: (assertions, options) => engine.check(assertions, options),
    dump: (assertions) => engine.dump(assertions),
    interrupt: () => engine.interrupt(),
    exclusive,
  };
}

/** What makes two verification requests the same: every field that is given, in one order. */
function requestKey(req: VerifyRequest): string {
  const given = Object.entries(req).filter(([, v]) => v !== undefined);
  return JSON.stringify(given.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
