/**
 * The one typed contract of a verifier worker: what the page's Web Workers
 * and the CLI's worker threads serve, over Comlink either way. Both serve the
 * same implementation (`serve.ts`); callers reach it through a `WorkerPool`
 * (`pool.ts`). Everything that crosses is plain, structured-cloneable data.
 */
import type { Diagnostic } from '../diagnostic.ts';
import type { PhaseTimes } from '../phases.ts';
import type { RunToolReply, RunToolRequest } from '../eval/agent/run-tool.ts';
import type { GradeOptions, GradeResult } from '../eval/grade/grade-types.ts';
import type { Task } from '../tasks/task.ts';
import type { DeclarativeResult } from '../verify/declarative.ts';
import type { DiffRequest, DiffVerdict } from '../verify/equivalence.ts';
import type { VerifyRequest } from '../verify/index.ts';
import type { Verdict } from '../verify/verdict.ts';

/** How `lemmas` checks: the budget of each query, a subset of lemmas, and whether the oracle's proof may be reused. */
export interface LemmaOptions {
  readonly timeoutMs?: number;
  readonly only?: readonly string[];
  readonly reuse?: boolean;
}

/** One entry of the dialect's catalog, for completion and hover. */
export type { CatalogEntry } from '../dialect/index.ts';
import type { CatalogEntry } from '../dialect/index.ts';

/** Result of the built-in Z3 self-test (a small bit-vector validity check). */
export interface SelfTestResult {
  /** Z3 answered unsat to the negation of a valid formula, and sat to a satisfiable one. */
  readonly ok: boolean;
  readonly validity: 'unsat' | 'sat' | 'unknown';
  readonly satisfiable: 'unsat' | 'sat' | 'unknown';
  /** The model's value of x in the satisfiable query, checked by our evaluator. */
  readonly witness?: string;
  readonly ms: number;
}

export interface ReadyInfo {
  readonly z3: boolean;
  /** Milliseconds spent loading Z3 (fetch + compile + init). */
  readonly initMs: number;
  readonly isolated: boolean;
  /** The memory Z3 runs in, in MiB (the page's workers: the largest size the device granted, docs/app.md "Z3's memory"). */
  readonly memoryMiB?: number;
  /** That size was capped by a setting, not by the device. */
  readonly memoryCapped?: boolean;
  /** False when Z3 runs in the worker's one thread (no memory to share with workers: WebKitGTK). */
  readonly threads?: boolean;
  /** How long each step of loading Z3 took (the page's workers). */
  readonly steps?: Z3LoadSteps;
}

/**
 * The steps of loading Z3 in a page's worker, in milliseconds from the start
 * of the load (docs/app.md, "Loading Z3"). The wasm downloads and compiles at
 * once, so `download` and `compile` overlap: `compile` ends when the module is
 * ready, which is after its last byte arrived.
 */
export interface Z3LoadSteps {
  /** When the load began, in milliseconds since the epoch. */
  readonly began: number;
  /** Until the wasm's last byte arrived (absent where Resource Timing does not see it). */
  readonly download?: number;
  /** Until the compiled module was ready. */
  readonly compile: number;
  /** Instantiating the compiled module (after `compile`). */
  readonly instantiate: number;
  /** The rest of the start: the glue's runtime, Z3's threads given the compiled module, the API (after instantiating). */
  readonly start: number;
  /** The first two checks, which start Z3's threads (after `start`). */
  readonly warmUp?: number;
  /** The wasm came from a cache (the HTTP cache or the service worker's), not the network; absent where the engine does not say. */
  readonly cached?: boolean;
  /** Z3's threads were handed the compiled module (none compiles it again); false when Z3 runs in the worker's one thread. */
  readonly threadsGetModule: boolean;
  /** How many of the thread workers made ahead (src/z3/threads.ts) Z3's threads had taken by the warm-up's end; absent where none are made. */
  readonly threadsAhead?: number;
}

/**
 * When a verifier worker did what the first verdict waits for (`VerifierApi.timings`;
 * ms since the epoch, `performance.timeOrigin + performance.now()` in a browser):
 * the page puts them on its own timeline as `osvlab:` marks (src/worker/phase-marks.ts)
 * for perf/app-load.ts.
 */
export interface WorkerTimings {
  /** When the worker was created (its time origin), where the platform says. */
  readonly created?: number;
  /** When its script had loaded and was evaluated (the API served). */
  readonly started: number;
  /** Parsing the kernel and building its symbolic form ahead of the first request (`init`). */
  readonly kernel?: { readonly start: number; readonly end: number };
  /** The last `verifyWithoutSolver`: its span and the phases of its phase clock (core/phases.ts). */
  readonly withoutSolver?: { readonly start: number; readonly end: number; readonly phases: PhaseTimes };
}

/** What a worker's phase clock measured while it ran (`VerifierApi.clock`). */
export interface WorkerClock {
  /** Milliseconds per phase (core/phases.ts). */
  readonly phases: PhaseTimes;
  /**
   * Each grade request served while it ran, in order: when the request
   * reached the worker and when its answer was handed back to be sent (ms
   * since the epoch, as the pool's side measures them too).
   */
  readonly requests: readonly { readonly arrived: number; readonly answered: number }[];
}

export interface VerifierApi {
  /** Loads Z3 (once per worker); resolves when the worker can solve. Parses the kernel as `prepare` does, while Z3 loads. */
  init(): Promise<ReadyInfo>;
  /**
   * Parses the kernel into its symbolic form now (once per worker), without
   * loading Z3: the page's verifier worker does it as soon as its code is in,
   * before the page asks for anything (src/worker/verifier.worker.ts).
   */
  prepare(): Promise<void>;
  /**
   * Loads Z3 as `init` does, then runs the platform's warm-up (once per
   * worker): the checks that start Z3's threads, where the page's workers run
   * Z3 on threads of its own; nothing elsewhere. Resolves with `init`'s
   * answer, its steps now with the warm-up's time. A separate call so the page
   * can bound it with a timer of its own (src/worker/web-pool.ts): a warm-up
   * that stalls can block the worker's thread, and with it every timer there.
   */
  warmUp(): Promise<ReadyInfo>;
  /** A real Z3 query end to end: proves a bit-vector identity and finds a model. */
  selfTest(): Promise<SelfTestResult>;
  /**
   * A query that takes Z3 a long time (factoring a 124-bit product of two primes in 128 bits), for
   * exercising cancellation and timeouts. Resolves with Z3's answer.
   */
  stress(seconds: number): Promise<'sat' | 'unsat' | 'unknown'>;
  /**
   * Proves the core's request (handler, spec, implementation source, budget,
   * strict). A benchmark variant is named by its source: the page resolves a
   * task id with `implSourceOf` (app/lib/content.ts) before it asks.
   */
  verify(req: VerifyRequest): Promise<Verdict>;
  /**
   * `verify`'s verdict when it takes no query (a spec that does not parse; a
   * spec whose every obligation a committed proof covers), else null; never
   * waits for Z3, so the page can show such a verdict while Z3's wasm still
   * compiles (core/service/solver-free.ts). Never throws: null says "ask `verify`".
   */
  verifyWithoutSolver(req: VerifyRequest): Promise<Verdict | null>;
  /**
   * Begins `verifyWithoutSolver(req)` now, once the kernel is read, for a
   * request the page is about to make: a share link's worker is told its
   * spec while the page's own code still loads, and the page's identical
   * request (the same handler, spec, implementation, limit and strictness)
   * is answered by that same verification, once (docs/app.md, "Loading Z3").
   */
  foresee(req: VerifyRequest): Promise<void>;
  /** When this worker started, parsed the kernel and last verified without Z3 (a benchmark's phases of the first verdict). */
  timings(): Promise<WorkerTimings>;
  /** Two specs of one handler compared by meaning (core/verify/equivalence.ts; `osvlab diff`, the playground's Compare). */
  diff(req: DiffRequest): Promise<DiffVerdict>;
  /** The lemma checks of `spec` for `handler` (core/verify/declarative.ts; `osvlab lemmas`). */
  lemmas(handler: string, spec: string, options: LemmaOptions): Promise<DeclarativeResult>;
  /**
   * Grades one spec for one task (core/eval/grade/grade.ts `gradeSpec`; the
   * spec as read from the answer where the answer was read,
   * core/eval/session/grading.ts): refinement against the correct kernel,
   * bug-following, strict when asked, and the variant matrix when
   * `variants` are given.
   */
  grade(task: Task, spec: string, options: GradeOptions): Promise<GradeResult>;
  /**
   * Answers an agent's `run` call (core/eval/agent/run-tool.ts `answerRun`):
   * the spec and the implementation on one concrete state, by the evaluator,
   * without Z3, so it never waits for Z3's load (the pool sends it to a
   * worker still starting: core/service/client.ts); its deadline starts when
   * the request reaches the worker.
   */
  agentRun(req: RunToolRequest): Promise<RunToolReply>;
  /**
   * Starts (`true`) or stops this worker's phase clock (core/phases.ts), for
   * benchmarks (`osvlab bench --corpus`); returns what it measured since it
   * started.
   */
  clock(run: boolean): Promise<WorkerClock>;
  /** Live diagnostics for the editor; fast and Z3-free. */
  check(source: string, handler: string): Promise<Diagnostic[]>;
  catalog(): Promise<CatalogEntry[]>;
}
