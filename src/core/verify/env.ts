/**
 * What every verification runs in: the solver and the caches of the worker
 * (or CLI process) it runs on. A worker builds one environment when it
 * starts and passes it to every check; nothing of the verifier keeps state
 * elsewhere (docs/design.md §3).
 */
import type { KernelContent } from '../kernel/content.ts';
import type { SmtEngine } from '../smt/solver.ts';
import type { VerifierCaches } from './caches.ts';

export interface VerifyEnv {
  readonly engine: SmtEngine;
  /** What is kept between verifications: one object per worker. */
  readonly caches: VerifierCaches;
  /** The kernel to verify against (default: the bundled hv6 kernel). */
  readonly kernel?: KernelContent;
  /**
   * The engine has no solver (service/solver-free.ts): what a refutation by
   * running (run-refute.ts) leaves open is not asked, rather than asked
   * and failed for want of a solver.
   */
  readonly solverFree?: boolean;
}
