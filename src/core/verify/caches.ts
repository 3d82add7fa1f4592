/**
 * Everything the verifier keeps between verifications, in one object that
 * the caller passes in (`VerifyEnv.caches`; without one, the process's
 * `PROCESS_CACHES`). Each cache has a bound, and `clear()` empties all of
 * them and disposes the Z3 models they hold, so a benchmark can time a cold
 * verification and a long-lived worker cannot grow without limit.
 *
 * - `programs`: the kernel parsed with an override unit, by kernel hash and
 *   override text (parsing takes about half a second), each with the
 *   implementation's runs on it, by handler (the C side of a step does not
 *   depend on the spec);
 * - `implProofs`: the proof of the implementation-only obligations (safety,
 *   invariants) by program and handler; a refuted one holds the refuting Z3
 *   model, which is disposed when the entry goes;
 * - `specs`: parsed and checked spec texts (the dialect's parse cache).
 *
 * Not here, because they are not caches of a verification: the memo of
 * oracle proofs and statement digests (proof-cache.ts, cleared by
 * `clearDeclarativeCaches`), and the dialect's map-memo epoch (a counter,
 * dialect/maps.ts: its memos live in the map objects and die with them).
 */
import { BoundedMap } from '../bounded-map.ts';
import type { CProgram } from '../c/index.ts';
import type { ParseCache } from '../dialect/index.ts';
import { newParseCache } from '../dialect/index.ts';
import type { ProofOutcome } from './prove.ts';
import type { ImplementationStep } from './refinement.ts';

export interface CacheLimits {
  /** Parsed programs (each with its implementation runs). */
  readonly programs: number;
  /** Implementation-only proofs. */
  readonly implProofs: number;
  /** Parsed spec texts. */
  readonly specs: number;
}

/**
 * 64 programs: the variants of one handler plus user overrides fit many
 * times over. 256 implementation proofs: one per handler and program the
 * grader meets in a run, small next to the programs. 16 specs: the editor
 * re-checks one text often, the verifier runs one spec against a few
 * implementations.
 */
export const DEFAULT_CACHE_LIMITS: CacheLimits = { programs: 64, implProofs: 256, specs: 16 };

/** A parsed program and the implementation's runs on it. */
export interface ProgramEntry {
  readonly program: CProgram;
  readonly runs: Map<string, ImplementationStep>;
}

/** An implementation-only proof: pending, then its outcome (which may hold a model). */
interface ImplProofEntry {
  readonly proof: Promise<ProofOutcome>;
  outcome?: ProofOutcome;
  /** Evicted or cleared: dispose the model as soon as the outcome is there. */
  gone: boolean;
}

/** What the caches hold now (for tests and diagnostics). */
export interface CacheStats {
  readonly programs: number;
  /** Implementation runs over all cached programs. */
  readonly implRuns: number;
  readonly implProofs: number;
  /** Undisposed Z3 models held by the implementation proofs. */
  readonly heldModels: number;
  /** Z3 models these caches have disposed so far. */
  readonly disposedModels: number;
  readonly specs: number;
}

export class VerifierCaches {
  readonly limits: CacheLimits;
  readonly programs: BoundedMap<string, ProgramEntry>;
  readonly specs: ParseCache;
  private readonly implProofs: BoundedMap<string, ImplProofEntry>;
  private disposed = 0;

  constructor(limits: Partial<CacheLimits> = {}) {
    this.limits = { ...DEFAULT_CACHE_LIMITS, ...limits };
    this.programs = new BoundedMap(this.limits.programs);
    this.specs = newParseCache(this.limits.specs);
    this.implProofs = new BoundedMap(this.limits.implProofs, (e) => this.drop(e));
  }

  /**
   * The implementation-only proof under `key`, made by `make` if absent.
   * The outcome's model stays valid while the entry is cached; `forget(key)`
   * drops an entry (and disposes its model) once the caller is done with it.
   */
  implProof(key: string, make: () => Promise<ProofOutcome>): Promise<ProofOutcome> {
    const hit = this.implProofs.get(key);
    if (hit) return hit.proof;
    const proof = make();
    const entry: ImplProofEntry = { proof, gone: false };
    this.implProofs.set(key, entry);
    proof.then(
      (outcome) => {
        entry.outcome = outcome;
        if (entry.gone) this.dispose(outcome);
      },
      () => this.implProofs.get(key) === entry && this.implProofs.delete(key),
    );
    return proof;
  }

  /** Drops the implementation proof under `key`, disposing its model. */
  forget(key: string): void {
    this.implProofs.delete(key);
  }

  /** Empties every cache and disposes every model they hold. */
  clear(): void {
    this.programs.clear();
    this.implProofs.clear();
    this.specs.clear();
  }

  stats(): CacheStats {
    let implRuns = 0;
    for (const p of this.programs.values()) implRuns += p.runs.size;
    let heldModels = 0;
    for (const e of this.implProofs.values()) if (e.outcome?.refutation) heldModels++;
    return {
      programs: this.programs.size,
      implRuns,
      implProofs: this.implProofs.size,
      heldModels,
      disposedModels: this.disposed,
      specs: this.specs.size,
    };
  }

  private drop(e: ImplProofEntry): void {
    e.gone = true;
    if (e.outcome) this.dispose(e.outcome);
  }

  private dispose(outcome: ProofOutcome): void {
    if (!outcome.refutation) return;
    outcome.refutation.model.dispose();
    this.disposed++;
  }
}

/** The caches of a caller that passes none. */
export const PROCESS_CACHES = new VerifierCaches();
