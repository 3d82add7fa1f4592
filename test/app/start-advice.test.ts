import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/core/pool/pool.ts';
import { startAdvice } from '../../src/app/lib/start-advice.ts';
import { WarmUpError, withinWarmUpLimit } from '../../src/worker/warm-up-limit.ts';

describe('the advice after Z3 did not start', () => {
  it("names Z3's threads, not the network, when every start's warm-up stalled", async () => {
    // Three starts whose warm-up never answers, each ended by the real limit (a timer of the page's, as
    // src/worker/web-pool.ts sets it): what the page's pool gives warm(), the error rebuilt with the count.
    let starts = 0;
    const pool = new WorkerPool<object>({
      spawn: () => ({ api: {}, terminate: () => undefined }),
      size: 1,
      init: async () => {
        starts++;
        await withinWarmUpLimit(new Promise(() => {}), 20);
      },
      startRetries: { times: 2, delayMs: 5 },
    });
    const error = await pool.warm().then(() => undefined, (e: unknown) => e);
    await pool.dispose();
    expect(starts).toBe(3);
    expect(error).toMatchObject({ name: 'WarmUpError', message: expect.stringContaining('(3 starts failed)') });
    expect(startAdvice(error)).toContain('?z3-threads=0');
    expect(startAdvice(error)).not.toContain('network');
  });

  it('keeps the network advice for any other failed load', () => {
    expect(startAdvice(new Error('Could not fetch the Z3 glue'))).toContain('Check the network connection');
    expect(startAdvice(new WarmUpError(30_000))).toContain("Z3's threads did not start");
    expect(startAdvice('a string')).toContain('Check the network connection');
  });
});
