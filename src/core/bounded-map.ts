/**
 * A map with a fixed capacity: inserting past it evicts the oldest entry
 * (insertion order; a hit does not refresh it). Every cache of the verifier
 * and the dialect is one of these, so each has a bound and says what happens
 * to what it drops (`onEvict`: a Z3 model must be disposed, a term need not).
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(
    readonly capacity: number,
    private readonly onEvict?: (value: V, key: K) => void,
  ) {
    if (!(capacity >= 1)) throw new RangeError(`a bounded map needs a capacity of at least 1, got ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }

  set(key: K, value: V): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      if (old !== value) this.onEvict?.(old, key);
    }
    while (this.entries.size >= this.capacity) {
      const [k, v] = this.entries.entries().next().value!;
      this.entries.delete(k);
      this.onEvict?.(v, k);
    }
    this.entries.set(key, value);
  }

  /** Removes `key` (its value is handed to `onEvict`). */
  delete(key: K): boolean {
    if (!this.entries.has(key)) return false;
    const v = this.entries.get(key)!;
    this.entries.delete(key);
    this.onEvict?.(v, key);
    return true;
  }

  /** Removes every entry, each handed to `onEvict`. */
  clear(): void {
    const all = [...this.entries];
    this.entries.clear();
    for (const [k, v] of all) this.onEvict?.(v, k);
  }
}
