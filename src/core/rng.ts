/**
 * A small seeded PRNG, so every random choice of the benchmark (which bugs,
 * which examples) is reproducible from a string key.
 */

/** Uniform numbers in [0, 1) from a generator keyed by `key` (FNV-1a hash, then `seeded`). */
export function rng(key: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return seeded(h || 1);
}

/** Uniform numbers in [0, 1) from a numeric seed (a mulberry32-style mix; fuzzers use it). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
