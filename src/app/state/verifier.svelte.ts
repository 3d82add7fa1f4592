/**
 * The app's one verifier pool and what the UI shows about it: whether the
 * page is cross-origin isolated, whether Z3 has loaded, which parts of the
 * verifier this build has, and the dialect catalog.
 */
import type { Diagnostic } from '../../core/diagnostic.ts';
import type { CatalogEntry } from '../../core/pool/contract.ts';
import { VerifierPool } from '../../worker/web-pool.ts';

export type EngineStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly since: number }
  | { readonly kind: 'ready'; readonly initMs: number }
  | { readonly kind: 'failed'; readonly message: string }
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
    if (this.status.kind === 'loading' || this.status.kind === 'ready') return;
    if (!this.isolated) {
      this.status = {
        kind: 'no-isolation',
        message:
          'This page is not cross-origin isolated, so Z3 cannot start its threads and nothing can be verified here. ' +
          'Serve the site with the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp, ' +
          'or open it in a browser with service workers enabled (not a private window in some browsers), which add them after one reload.',
      };
      this.settle();
      return;
    }
    this.status = { kind: 'loading', since: Date.now() };
    try {
      const info = await this.pool.warm();
      this.status = { kind: 'ready', initMs: info.initMs };
    } catch (e) {
      this.status = { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
    } finally {
      this.settle();
    }
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
