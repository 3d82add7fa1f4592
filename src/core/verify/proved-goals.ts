/**
 * Refinement goals known to hold, kept in the worker's caches (caches.ts)
 * by program and handler: a goal proved under the representation
 * invariants of a program holds in every state that satisfies them, so the
 * same goal in a later step of the same handler (hash-consed terms: the
 * same term object) is proved without a query (docs/design.md §3,
 * "Reusing refinement proofs"). Filled by every refinement proof of the
 * worker and, for the kernel as shipped, from the committed proofs of the
 * oracle spec's obligations (refinement-proofs.ts), so the first answer of
 * a handler whose obligations are the oracle's, term for term, asks
 * nothing.
 */
import { BoundedMap } from '../bounded-map.ts';
import type { Term } from '../smt/term.ts';
import { type CacheStats, type SlotValue, cacheSlot } from './caches.ts';

class ProvedGoals implements SlotValue {
  /** `${implKey}\0${goal id}`. */
  private readonly goals: BoundedMap<string, true>;
  /** Program-and-handler keys whose committed oracle proof was looked up (hit or not). */
  private readonly seeded: BoundedMap<string, true>;

  constructor(capacity: number, programs: number) {
    this.goals = new BoundedMap(capacity);
    this.seeded = new BoundedMap(programs);
  }

  /** Is `goal` known to hold for the program and handler `implKey`? */
  has(implKey: string, goal: Term): boolean {
    return this.goals.has(`${implKey}\0${goal.id}`);
  }

  /** Records `goals` as proved for `implKey`. */
  add(implKey: string, goals: readonly Term[]): void {
    for (const g of goals) this.goals.set(`${implKey}\0${g.id}`, true);
  }

  /** Runs `seed` once per `implKey` (it records what a committed proof gives). */
  seedOnce(implKey: string, seed: () => void): void {
    if (this.seeded.has(implKey)) return;
    this.seeded.set(implKey, true);
    seed();
  }

  clear(): void {
    this.goals.clear();
    this.seeded.clear();
  }

  stats(): Partial<CacheStats> {
    return { provedGoals: this.goals.size };
  }
}

export const PROVED_GOALS = cacheSlot((limits) => new ProvedGoals(limits.provedGoals, limits.implProofs));
