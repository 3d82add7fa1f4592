import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import { warmUp } from '../../src/core/smt/solver.ts';
import { WarmUpError, withinWarmUpLimit } from '../../src/worker/warm-up-limit.ts';

describe('the warm-up limit', () => {
  it('ends a warm-up that never settles with WarmUpError once the limit has passed', async () => {
    // A Z3 check thread that never starts (Firefox, Z3 on its threads) left the load waiting forever.
    const started = Date.now();
    await expect(withinWarmUpLimit(new Promise(() => {}), 200)).rejects.toThrow(WarmUpError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('passes a real warm-up through, and its error as it is', async () => {
    await expect(withinWarmUpLimit(warmUp(await nodeEngine()), 60_000)).resolves.toBeUndefined();
    await expect(withinWarmUpLimit(Promise.reject(new Error('no wasm')), 60_000)).rejects.toThrow('no wasm');
  });
});
