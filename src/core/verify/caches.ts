/**
 * Everything the verifier keeps between verifications, in one object built
 * once per worker (or CLI process) and passed in as `VerifyEnv.caches`. The
 * object is a set of typed slots: each part of the verifier declares its own
 * slot next to the code that uses it (`cacheSlot`), so this file knows no
 * cache's contents and imports nothing of verify/. Each slot has a bound
 * (`CacheLimits`), and `clear()` empties all of them (a slot that holds Z3
 * models disposes them), so a benchmark can time a cold verification and a
 * long-lived worker cannot grow without limit.
 *
 * The slots (docs/design.md §3):
 * - programs (implementation.ts): the kernel parsed with an override unit,
 *   with the implementation's runs on it, by handler;
 * - implementation proofs (impl-proofs.ts): the implementation-only
 *   obligations by program and handler; a refuted one owns its Z3 model;
 * - specs (driver.ts): parsed and checked spec texts;
 * - declarative bases (declarative.ts): a handler's symbolic start and its
 *   oracle's step from it;
 * - statements and oracle proofs (proof-cache.ts): statement digests and
 *   the oracle proofs made in this process;
 * - known facts (known-facts.ts): the declarative facts proved so far;
 * - proved goals (proved-goals.ts): the refinement goals proved so far, by
 *   program and handler;
 * - engine checks (engine-proofs.ts): the handler-independent checks, per
 *   engine;
 * - reachable states (state-bank.ts): the bank's states, replayed once, and
 *   each handler's cases.
 *
 * Not here, because it is not a cache of a verification: the dialect's
 * map-memo epoch (a counter, dialect/maps.ts: its memos live in the map
 * objects and die with them).
 */
import { BoundedMap } from '../bounded-map.ts';

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
  /** Declarative facts known to hold (known-facts.ts). */
  readonly factProofs: number;
  /** Refinement goals known to hold, by program and handler (proved-goals.ts). */
  readonly provedGoals: number;
  /** Engines whose corollary and initial-state results are kept. */
  readonly engines: number;
  /** Reachable states replayed from the state bank, and handlers' case lists (state-bank.ts). */
  readonly reachableStates: number;
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
 * 20000 known facts: a handler's statement has about 150, so every handler
 * with a few dozen distinct answers each; an entry is a short key. 20000
 * proved goals: a step has about 25, the same reasoning. 4
 * engines: a process or worker has one, and a replaced one (a dead
 * Z3) is soon evicted instead of being held for good. 512 reachable
 * states: the bank's paths of every handler share prefixes and hold a few
 * hundred states in all; a state is a chain of map closures.
 */
const DEFAULT_CACHE_LIMITS: CacheLimits = {
  programs: 64,
  implProofs: 256,
  specs: 16,
  declarativeBases: 64,
  statements: 256,
  oracleProofs: 256,
  factProofs: 20_000,
  provedGoals: 20_000,
  engines: 4,
  reachableStates: 512,
};

/** What the caches hold now (for tests and diagnostics); a slot not used yet counts 0. */
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
  readonly factProofs: number;
  readonly provedGoals: number;
  /** Engines with corollary results, plus engines with initial-state results. */
  readonly engineChecks: number;
  /** Reachable states replayed, plus handlers whose cases are listed. */
  readonly reachableStates: number;
}

const NO_STATS: CacheStats = {
  programs: 0,
  implRuns: 0,
  implProofs: 0,
  heldModels: 0,
  disposedModels: 0,
  specs: 0,
  declarativeBases: 0,
  statements: 0,
  oracleProofs: 0,
  factProofs: 0,
  provedGoals: 0,
  engineChecks: 0,
  reachableStates: 0,
};

/** What a slot holds: something that can be emptied and counted. */
export interface SlotValue {
  /** Empties the slot (disposing what it owns). */
  clear(): void;
  /** Its part of `CacheStats`. */
  stats(): Partial<CacheStats>;
}

/** A slot's declaration: how to make its value for one cache object. */
export interface CacheSlot<T extends SlotValue> {
  readonly make: (limits: CacheLimits) => T;
}

/** Declares a slot (at module level, once). */
export function cacheSlot<T extends SlotValue>(make: (limits: CacheLimits) => T): CacheSlot<T> {
  return { make };
}

/** A bounded map that counts itself as `stat` (the common slot). */
export class SlotMap<K, V> extends BoundedMap<K, V> implements SlotValue {
  constructor(
    capacity: number,
    private readonly stat: keyof CacheStats,
    onEvict?: (value: V, key: K) => void,
  ) {
    super(capacity, onEvict);
  }

  stats(): Partial<CacheStats> {
    return { [this.stat]: this.size };
  }
}

/** Declares a slot that is one bounded map, bounded by `limit` and counted as `stat`. */
export function mapSlot<K, V>(limit: keyof CacheLimits, stat: keyof CacheStats = limit as keyof CacheStats): CacheSlot<SlotMap<K, V>> {
  return cacheSlot((limits) => new SlotMap<K, V>(limits[limit], stat));
}

export class VerifierCaches {
  readonly limits: CacheLimits;
  private readonly slots = new Map<CacheSlot<SlotValue>, SlotValue>();

  constructor(limits: Partial<CacheLimits> = {}) {
    this.limits = { ...DEFAULT_CACHE_LIMITS, ...limits };
  }

  /** The value of `slot` in this object, made on first use. */
  slot<T extends SlotValue>(slot: CacheSlot<T>): T {
    let v = this.slots.get(slot);
    if (!v) this.slots.set(slot, (v = slot.make(this.limits)));
    return v as T;
  }

  /** Empties every slot and disposes every model they hold. */
  clear(): void {
    for (const v of this.slots.values()) v.clear();
  }

  stats(): CacheStats {
    const out: Record<string, number> = { ...NO_STATS };
    for (const v of this.slots.values()) for (const [k, n] of Object.entries(v.stats())) out[k] += n;
    return out as unknown as CacheStats;
  }
}

/**
 * The promise under `key` in `map`, made by `make` if absent. It is dropped
 * again when it fails or its value is not worth keeping (`keep` false), so
 * the next call tries again; only a promise still in the map is dropped.
 */
export function remember<K, V>(map: BoundedMap<K, Promise<V>>, key: K, make: () => Promise<V>, keep: (v: V) => boolean): Promise<V> {
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
