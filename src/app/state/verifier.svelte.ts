/**
 * The app's one verifier pool and what the UI shows about it: whether the
 * page is cross-origin isolated, whether Z3 has loaded, which parts of the
 * verifier this build has, and the dialect catalog.
 */
import type { Diagnostic } from '../../core/diagnostic.ts';
import type { CatalogEntry, Z3LoadSteps } from '../../core/service/contract.ts';
import type { VerifyRequest } from '../../core/verify/index.ts';
import type { Verdict } from '../../core/verify/verdict.ts';
import { VerifierPool } from '../../worker/web-pool.ts';
import { startAdvice } from '../lib/start-advice.ts';
import { browserName } from '../../worker/z3-obstacle.ts';
import { isZ3Unavailable } from '../../worker/z3-unavailable.ts';

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
  readonly pool = new VerifierPool();
  status = $state<EngineStatus>({ kind: 'idle' });
  catalog = $state.raw<readonly CatalogEntry[]>([]);
  respawns = $state(0);
  readonly isolated = typeof window !== 'undefined' && window.crossOriginIsolated === true;
  /** Resolves once loading Z3 has succeeded or failed (never rejects). */
  readonly settled: Promise<void>;
  private settle!: () => void;

  constructor() {
    this.settled = new Promise((r) => (this.settle = r));
    this.pool.onRespawn = () => (this.respawns = this.pool.respawns);
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
      const info = await this.pool.warm();
      this.status = { kind: 'ready', initMs: info.initMs, memoryMiB: info.memoryMiB, memoryCapped: info.memoryCapped, threads: info.threads, steps: info.steps };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.status = isZ3Unavailable(e) ? { kind: 'unavailable', message } : { kind: 'failed', message: `${message}. ${startAdvice(e)}` };
    } finally {
      this.settle();
    }
  }

  /**
   * While Z3 loads: `req`'s verdict if it takes no query (a spec that does
   * not parse, a correct spec whose proofs are committed, a wrong spec a
   * concrete state refutes: verify/run-refute.ts), from the worker
   * that is loading Z3, so it shows before Z3 is ready (docs/app.md,
   * "Loading Z3"); undefined when it needs Z3, when Z3 is not loading, or
   * once loading has settled first (the pool then verifies as always).
   */
  async verifyWhileLoading(req: VerifyRequest): Promise<Verdict | undefined> {
    if (this.status.kind !== 'loading') return undefined;
    return Promise.race([this.pool.verifyWithoutSolver(req), this.settled.then(() => undefined)]);
  }

  /** Loads the dialect catalog from the Z3-free lint worker. */
  async loadCatalog(): Promise<void> {
    try {
      this.catalog = await this.pool.lint.catalog();
    } catch {
      this.catalog = [];
    }
  }

  /** Live diagnostics for the editor (never blocked by a running proof). */
  check(source: string, handler: string): Promise<Diagnostic[]> {
    return this.pool.lint.check(source, handler);
  }
}

export const verifier = new VerifierService();
