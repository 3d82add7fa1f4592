/**
 * The implementation-only proofs (safety and the implementation's own
 * invariants, refinement.ts `implObligations`), kept per program and
 * handler in the worker's caches: they do not depend on the spec, so every
 * answer graded against one program shares them. A refuted proof owns its
 * refuting Z3 model (prove.ts), which is disposed when the entry goes:
 * evicted, forgotten or cleared, at once if the proof is done, else as soon
 * as it is.
 */
import { BoundedMap } from '../bounded-map.ts';
import { type CacheStats, type SlotValue, cacheSlot } from './caches.ts';
import { type ProofOutcome, disposeOutcome } from './prove.ts';

interface Entry {
  readonly proof: Promise<ProofOutcome>;
  /** The outcome, once the proof is done. */
  done?: ProofOutcome;
}

class ImplProofs implements SlotValue {
  private readonly entries: BoundedMap<string, Entry>;
  private disposed = 0;

  constructor(capacity: number) {
    this.entries = new BoundedMap(capacity, (e) => this.release(e));
  }

  /**
   * The proof under `key`, made by `make` if absent. The outcome's model
   * stays valid while the entry is cached; `forget(key)` drops an entry once
   * the caller is done with it. A proof that throws is not kept.
   */
  get(key: string, make: () => Promise<ProofOutcome>): Promise<ProofOutcome> {
    const hit = this.entries.get(key);
    if (hit) return hit.proof;
    const entry: Entry = { proof: make() };
    this.entries.set(key, entry);
    entry.proof.then(
      (outcome) => {
        entry.done = outcome;
      },
      () => this.entries.get(key) === entry && this.entries.delete(key),
    );
    return entry.proof;
  }

  /** Drops the proof under `key`, disposing its model. */
  forget(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  stats(): Partial<CacheStats> {
    let heldModels = 0;
    for (const e of this.entries.values()) if (e.done?.refutation) heldModels++;
    return { implProofs: this.entries.size, heldModels, disposedModels: this.disposed };
  }

  private release(e: Entry): void {
    if (e.done) this.dispose(e.done);
    else e.proof.then((o) => this.dispose(o), () => undefined);
  }

  private dispose(outcome: ProofOutcome): void {
    if (!outcome.refutation) return;
    disposeOutcome(outcome);
    this.disposed++;
  }
}

export const IMPL_PROOFS = cacheSlot((limits) => new ImplProofs(limits.implProofs));
