/**
 * Everything the verifier keeps between verifications, in one object that
 * the caller passes in (`VerifyEnv.caches`, `DeclarativeOptions.caches`, the
 * lemma checks' `caches`; without one, the process's `PROCESS_CACHES`).
 * Each cache has a bound, and `clear()` empties all of them and disposes the
 * Z3 models they hold, so a benchmark can time a cold verification and a
 * long-lived worker cannot grow without limit.
 *
 * Refinement (driver.ts):
 * - `programs`: the kernel parsed with an override unit, by kernel hash and
 *   override text (parsing takes about half a second), each with the
 *   implementation's runs on it, by handler (the C side of a step does not
 *   depend on the spec);
 * - `implProofs`: the proof of the implementation-only obligations (safety,
 *   invariants) by program and handler; a refuted one holds the refuting Z3
 *   model, which is disposed when the entry goes;
 * - `specs`: parsed and checked spec texts (the dialect's parse cache).
 *
 * Declarative checks (declarative.ts, proof-cache.ts, lemma-check.ts):
 * - `declarativeBases`: a handler's symbolic start and its oracle's step
 *   from it (with the proof key per lemma set);
 * - `statements`: the digest of what a proof states, by handler and lemma set;
 * - `oracleProofs`: oracle proofs made in this process (the committed ones,
 *   tasks/hv6/lemma-proofs.json, are not a cache and stay);
 * - `corollaries`, `initial`: the handler-independent checks, by engine.
 * None of these holds a Z3 model (results only), so dropping one disposes
 * nothing.
 *
 * Not here, because it is not a cache of a verification: the dialect's
 * map-memo epoch (a counter, dialect/maps.ts: its memos live in the map
 * objects and die with them).
 */
import { BoundedMap } from '../bounded-map.ts';
import type { CProgram } from '../c/index.ts';
import type { ParseCache } from '../dialect/index.ts';
import { newParseCache } from '../dialect/index.ts';
import type { SmtEngine } from '../smt/solver.ts';
import type { DeclarativeBase } from './declarative.ts';
import type { LemmaResult } from './lemma-check.ts';
import type { StoredProof } from './proof-cache.ts';
import type { ProofOutcome } from './prove.ts';
import type { ImplementationStep } from './refinement.ts';

export interface CacheLimits {
  /** Parsed programs (each with its implementation runs). */
  readonly programs: number;
  /** Implementation-only proofs. */
  readonly implProofs: number;
  /** Parsed spec texts. */
  readonly specs: number;
  /** Handler starts of the declarative checks (each with its oracle's step). */
  readonly declarativeBases: number;
  /** Statement digests, by handler and lemma set. */
  readonly statements: number;
  /** Oracle proofs made in this process, by proof key. */
  readonly oracleProofs: number;
  /** Engines whose corollary and initial-state results are kept. */
  readonly engines: number;
}

/**
 * 64 programs: the variants of one handler plus user overrides fit many
 * times over. 256 implementation proofs: one per handler and program the
 * grader meets in a run, small next to the programs. 16 specs: the editor
 * re-checks one text often, the verifier runs one spec against a few
 * implementations. 64 declarative bases: every handler of the kernel (50),
 * so a strict run over all of them never re-runs an oracle. 256 statement
 * digests and 256 oracle proofs: each handler with a few lemma sets (grading
 * uses one; `osvlab lemmas --only` adds others), and each is a short string.
 * 4 engines: a process or worker has one, and a replaced one (a dead Z3) is
 * soon evicted instead of being held for good.
 */
const DEFAULT_CACHE_LIMITS: CacheLimits = {
  programs: 64,
  implProofs: 256,
  specs: 16,
  declarativeBases: 64,
  statements: 256,
  oracleProofs: 256,
  engines: 4,
};

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
  readonly declarativeBases: number;
  readonly statements: number;
  readonly oracleProofs: number;
  /** Engines with corollary results, plus engines with initial-state results. */
  readonly engineChecks: number;
}

/** The handler-independent checks kept per engine (lemma-check.ts). */
export type EngineCheck = 'corollaries' | 'initial';

export class VerifierCaches {
  readonly limits: CacheLimits;
  readonly programs: BoundedMap<string, ProgramEntry>;
  readonly specs: ParseCache;
  /** By handler and oracle text (declarative.ts). */
  readonly declarativeBases: BoundedMap<string, DeclarativeBase>;
  /** By handler and lemma set (proof-cache.ts). */
  readonly statements: BoundedMap<string, string>;
  private readonly implProofs: BoundedMap<string, ImplProofEntry>;
  private readonly oracleProofs: BoundedMap<string, Promise<StoredProof | undefined>>;
  private readonly engineChecks: Record<EngineCheck, BoundedMap<SmtEngine, Promise<LemmaResult[]>>>;
  private disposed = 0;

  constructor(limits: Partial<CacheLimits> = {}) {
    this.limits = { ...DEFAULT_CACHE_LIMITS, ...limits };
    this.programs = new BoundedMap(this.limits.programs);
    this.specs = newParseCache(this.limits.specs);
    this.implProofs = new BoundedMap(this.limits.implProofs, (e) => this.drop(e));
    this.declarativeBases = new BoundedMap(this.limits.declarativeBases);
    this.statements = new BoundedMap(this.limits.statements);
    this.oracleProofs = new BoundedMap(this.limits.oracleProofs);
    this.engineChecks = { corollaries: new BoundedMap(this.limits.engines), initial: new BoundedMap(this.limits.engines) };
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

  /**
   * The oracle proof under `key` made in this process, made by `make` if
   * absent. Only a proof is kept: an undefined outcome (something not
   * proved) or a failure is dropped, so the next call tries again.
   */
  oracleProof(key: string, make: () => Promise<StoredProof | undefined>): Promise<StoredProof | undefined> {
    return remember(this.oracleProofs, key, make, (p) => p !== undefined);
  }

  /** The `which` check's results on `engine`, made by `make` if absent (a failure is not kept). */
  engineCheck(which: EngineCheck, engine: SmtEngine, make: () => Promise<LemmaResult[]>): Promise<LemmaResult[]> {
    return remember(this.engineChecks[which], engine, make, () => true);
  }

  /** Empties every cache and disposes every model they hold. */
  clear(): void {
    this.programs.clear();
    this.implProofs.clear();
    this.specs.clear();
    this.declarativeBases.clear();
    this.statements.clear();
    this.oracleProofs.clear();
    this.engineChecks.corollaries.clear();
    this.engineChecks.initial.clear();
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
      declarativeBases: this.declarativeBases.size,
      statements: this.statements.size,
      oracleProofs: this.oracleProofs.size,
      engineChecks: this.engineChecks.corollaries.size + this.engineChecks.initial.size,
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

/**
 * The promise under `key` in `map`, made by `make` if absent. It is dropped
 * again when it fails or its value is not worth keeping (`keep` false), so
 * the next call tries again; only a promise still in the map is dropped.
 */
function remember<K, V>(map: BoundedMap<K, Promise<V>>, key: K, make: () => Promise<V>, keep: (v: V) => boolean): Promise<V> {
  const hit = map.get(key);
  if (hit) return hit;
  const made = make();
  map.set(key, made);
  const drop = () => {
    if (map.get(key) === made) map.delete(key);
  };
  made.then((v) => keep(v) || drop(), drop);
  return made;
}

/** The caches of a caller that passes none. */
export const PROCESS_CACHES = new VerifierCaches();
