/** The shard split (src/core/eval/run/shard.ts): parsing K/N and `env`, and that the shards partition a run evenly. */
import { describe, expect, it } from 'vitest';
import { ShardError, chainsOwned, ownsChain, parseShard } from '../../../src/core/eval/run/shard.ts';

describe('parseShard', () => {
  it('reads K/N with K 1-based', () => {
    expect(parseShard('1/4')).toEqual({ index: 1, total: 4 });
    expect(parseShard(' 4/4 ')).toEqual({ index: 4, total: 4 });
    for (const bad of ['0/4', '5/4', '1/0', '2', 'a/b', '1/-3', '']) expect(() => parseShard(bad), bad).toThrow(ShardError);
  });

  it('env: a 0-based index from Kubernetes or Slurm, N from OSVLAB_SHARD_TOTAL', () => {
    expect(parseShard('env', { JOB_COMPLETION_INDEX: '0', OSVLAB_SHARD_TOTAL: '3' })).toEqual({ index: 1, total: 3 });
    expect(parseShard('env', { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '4' })).toEqual({ index: 4, total: 4 });
    expect(() => parseShard('env', { JOB_COMPLETION_INDEX: '3', OSVLAB_SHARD_TOTAL: '3' })).toThrow(/between 1 and N/);
    expect(() => parseShard('env', { OSVLAB_SHARD_TOTAL: '3' })).toThrow(/JOB_COMPLETION_INDEX/);
    expect(() => parseShard('env', { JOB_COMPLETION_INDEX: '1' })).toThrow(/OSVLAB_SHARD_TOTAL/);
  });
});

describe('the split', () => {
  it('keeps a task\'s samples and neighbouring tasks together', () => {
    // 10 tasks x 2 samples in 3 shards: chains 0..19 task by task, blocks [0, 6.67), [6.67, 13.3), [13.3, 20).
    const owner = (t: number, s: number) => [1, 2, 3].find((k) => ownsChain({ index: k, total: 3 }, t, s, 10, 2));
    expect(Array.from({ length: 10 }, (_, t) => `${owner(t, 0)}${owner(t, 1)}`)).toEqual(['11', '11', '11', '12', '22', '22', '22', '33', '33', '33']);
  });

  it('gives every chain exactly one shard, the shards within one chain of each other, and chainsOwned counts them', () => {
    for (const [tasks, n, total] of [[245, 1, 4], [7, 3, 3], [5, 2, 7], [1, 1, 2], [10, 10, 1]]) {
      const sizes = Array(total).fill(0);
      for (let s = 0; s < n; s++) {
        for (let t = 0; t < tasks; t++) {
          const owners = Array.from({ length: total }, (_, k) => k + 1).filter((k) => ownsChain({ index: k, total }, t, s, tasks, n));
          expect(owners).toHaveLength(1);
          sizes[owners[0] - 1]++;
        }
      }
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      sizes.forEach((size, k) => expect(chainsOwned({ index: k + 1, total }, tasks, n)).toBe(size));
      expect(chainsOwned(undefined, tasks, n)).toBe(tasks * n);
    }
  });
});
