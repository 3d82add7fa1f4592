/**
 * The page's verifier service: the one way every page and state class
 * reaches the verifier workers. It owns the policy of a verification (warm
 * Z3 up, answer at once a spec that takes no query while Z3 still loads,
 * say why when Z3 cannot run, then the pool), and what the UI shows about
 * the verifier: whether the page is cross-origin isolated, whether Z3 has
 * loaded, the workers restarted, and the dialect catalog. No state class
 * holds the worker pool itself.
 */
import type { Diagnostic } from '../../core/diagnostic.ts';
import type { RunToolReply, RunToolRequest } from '../../core/eval/agent/run-tool.ts';
import type { GradeResult } from '../../core/eval/grade/grade-types.ts';
import type { GraderOptions } from '../../core/eval/session/ports.ts';
import type { CatalogEntry, SelfTestResult, Z3LoadSteps } from '../../core/service/contract.ts';
import type { Task } from '../../core/tasks/task.ts';
import type { DiffRequest, DiffVerdict } from '../../core/verify/equivalence.ts';
import type { VerifyRequest } from '../../core/verify/index.ts';
import type { Verdict } from '../../core/verify/verdict.ts';
import { CancelledError } from '../../core/pool/pool.ts';
import { markWorkerPhases } from '../../worker/phase-marks.ts';
import { lintWorker, webVerifier } from '../../worker/web-pool.ts';
import { startAdvice } from '../lib/start-advice.ts';
import { browserName } from '../../z3/obstacle.ts';
import { isZ3Unavailable } from '../../z3/unavailable.ts';

export type EngineStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly since: number }
  | { readonly kind: 'ready'; readonly initMs: number; readonly memoryMiB?: number; readonly memoryCapped?: boolean; readonly threads?: boolean; readonly steps?: Z3LoadSteps }
  | { readonly kind: 'failed'; readonly message: string }
  /** This browser cannot run Z3 (no shared memory, too little memory): the message is one sentence saying why and what to do. */
  | { readonly kind: 'unavailable'; readonly message: string }
  /** The page cannot be cross-origin isolated, so Z3's threads cannot start. */
  | { readonly kind: 'no-isolation'; readonly message: string };

export class VerifierService {
  private readonly client = webVerifier();
  private lint?: ReturnType<typeof lintWorker>;
  /** A count per lane, moved on by each verification and cancellation in it: a verification that was overtaken before it reached the pool stops there. */
  private readonly laneTurns = new Map<string, number>();
  status = $state<EngineStatus>({ kind: 'idle' });
  catalog = $state.raw<readonly CatalogEntry[]>([]);
  respawns = $state(0);
  readonly isolated = typeof window !== 'undefined' && window.crossOriginIsolated === true;
  /** Resolves once loading Z3 has succeeded or failed (never rejects). */
  readonly settled: Promise<void>;
  private settle!: () => void;

  constructor() {
    this.settled = new Promise((r) => (this.settle = r));
    this.client.onRespawn = () => (this.respawns = this.client.respawns);
  }

  /** How many verifier workers the page runs at most. */
  get size(): number {
    return this.client.size;
  }

  /** Z3 cannot run here, and this says why (not isolated, failed to start, unavailable); undefined while it can or may. */
  private get obstacle(): string | undefined {
    const s = this.status;
    return s.kind === 'no-isolation' || s.kind === 'failed' || s.kind === 'unavailable' ? s.message : undefined;
  }

  /** Starts loading Z3 in the first worker, unless isolation is impossible. */
  async warm(): Promise<void> {
    if (this.status.kind === 'loading' || this.status.kind === 'ready' || this.status.kind === 'unavailable') return;
    if (!this.isolated) {
      this.status = {
        kind: 'no-isolation',
        message:
          `Z3 cannot run in ${browserName(navigator.userAgent)} on this page: it is not cross-origin isolated, so Z3 cannot start its threads; ` +
          'serve the site with the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp, ' +
          'or open it in a browser with service workers enabled (not a private window in some browsers), which add them after one reload.',
      };
      this.settle();
      return;
    }
    this.status = { kind: 'loading', since: Date.now() };
    try {
      // The pool starts a worker that did not load again, twice (src/worker/web-pool.ts), before this fails.
      const info = await this.client.warm();
      this.status = { kind: 'ready', initMs: info.initMs, memoryMiB: info.memoryMiB, memoryCapped: info.memoryCapped, threads: info.threads, steps: info.steps };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.status = isZ3Unavailable(e) ? { kind: 'unavailable', message } : { kind: 'failed', message: `${message}. ${startAdvice(e)}` };
    } finally {
      this.settle();
    }
  }

  /**
   * Verifies `req`, as every page does: Z3 starts warming up; while it loads,
   * a spec that takes no query (a spec that does not parse, a correct spec
   * whose proofs are committed, a wrong spec a concrete state refutes:
   * verify/run-refute.ts) is answered by the worker that is loading Z3, so
   * its verdict shows before Z3 is ready (docs/app.md, "Loading Z3");
   * otherwise it waits for Z3 (throwing why, when Z3 cannot run here) and
   * verifies on the pool. In a `lane`, a newer verification or `cancel`
   * supersedes this one (`CancelledError`), also before it reaches the pool.
   * When nothing has asked for Z3 yet, Z3 starts loading only once the worker
   * has answered without it.
   */
  async verify(req: VerifyRequest, opts: { readonly lane?: string } = {}): Promise<Verdict> {
    const lane = opts.lane;
    const turn = lane === undefined ? 0 : this.nextTurn(lane);
    const overtaken = () => {
      if (lane !== undefined && this.laneTurns.get(lane) !== turn) throw new CancelledError(this.laneTurns.get(lane)! < 0 ? 'cancelled' : 'superseded');
    };
    // Z3 not asked for yet (a share link opening): the verdict without a query first, and Z3's load after it, so that
    // its 5 MB download and its compile do not share the network and the CPU with the verdict's own code (docs/app.md,
    // "Loading Z3"). The worker's start (its kernel) is what that verdict waits for, not Z3.
    // Asked so, it is not asked again while Z3 loads: a spec that needed a query then needs one still.
    const beforeZ3 = this.status.kind === 'idle' && this.isolated;
    const first = beforeZ3 ? await this.withoutSolver(req, false) : undefined;
    const warming = this.warm();
    const early = beforeZ3 ? first : await this.whileLoading(req);
    overtaken();
    if (early) return early;
    await warming;
    overtaken();
    const obstacle = this.obstacle;
    if (obstacle !== undefined) throw new Error(obstacle);
    return this.client.verify(req, lane === undefined ? {} : { lane });
  }

  /** `req`'s verdict if it takes no query, while Z3 loads; undefined when it needs Z3, when Z3 is not loading, or once loading has settled first. */
  private async whileLoading(req: VerifyRequest): Promise<Verdict | undefined> {
    if (this.status.kind !== 'loading') return undefined;
    return Promise.race([this.withoutSolver(req, true), this.settled.then(() => undefined)]);
  }

  /** `req`'s verdict from the first worker if it takes no query (`start`: begin that worker's Z3 load too). */
  private withoutSolver(req: VerifyRequest, start: boolean): Promise<Verdict | undefined> {
    // Its phases for the benchmark's timeline, after the verdict and not waited for (an older worker has no `timings`).
    return this.client.verifyWithoutSolver(req, (api) => void api.timings().then(markWorkerPhases, () => undefined), { start });
  }

  private nextTurn(lane: string): number {
    const turn = Math.abs(this.laneTurns.get(lane) ?? 0) + 1;
    this.laneTurns.set(lane, turn);
    return turn;
  }

  /** Stops the verification of `lane`, running or on its way (its worker is terminated and replaced). */
  cancel(lane: string): void {
    const turn = this.laneTurns.get(lane);
    if (turn !== undefined && turn > 0) this.laneTurns.set(lane, -turn);
    this.client.cancel(lane);
  }

  /** Two specs of one handler compared by meaning (Compare, History, the lessons' groups), on the pool. */
  diff(req: DiffRequest): Promise<DiffVerdict> {
    return this.client.diff(req);
  }

  /** Grades one spec on the pool as the CLI does (core/service/client.ts): the page's runs' grader. */
  grade(task: Task, spec: string | null, options: GraderOptions): Promise<GradeResult> {
    return this.client.grade(task, spec, options);
  }

  /** Answers an agent's `run` call on the pool, off the page's thread (the page's runs' runner). */
  agentRun(req: RunToolRequest, signal?: AbortSignal): Promise<RunToolReply> {
    return this.client.agentRun(req, signal ? { signal } : {});
  }

  /** The built-in Z3 self-test (Diagnostics). */
  selfTest(): Promise<SelfTestResult> {
    return this.client.run((api) => api.selfTest(), { hardTimeoutMs: 60_000 });
  }

  /** A query that keeps Z3 busy for `seconds`, in `lane` (Diagnostics; `cancel` stops it). */
  stress(seconds: number, lane: string): Promise<'sat' | 'unsat' | 'unknown'> {
    return this.client.run((api) => api.stress(seconds), { lane });
  }

  /** Loads the dialect catalog from the Z3-free lint worker. */
  async loadCatalog(): Promise<void> {
    try {
      this.catalog = await this.lintApi().catalog();
    } catch {
      this.catalog = [];
    }
  }

  /** Live diagnostics for the editor (never blocked by a running proof). */
  check(source: string, handler: string): Promise<Diagnostic[]> {
    return this.lintApi().check(source, handler);
  }

  /** The Z3-free lint worker, started on first use. */
  private lintApi() {
    this.lint ??= lintWorker();
    return this.lint.api;
  }
}

export const verifier = new VerifierService();
