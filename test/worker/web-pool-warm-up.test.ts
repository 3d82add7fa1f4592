/**
 * The page's bound on a worker's warm-up (src/worker/warm-up-limit.ts,
 * src/worker/web-pool.ts): a warm-up that holds its worker's thread, so that
 * no timer there can fire, still ends at the page's limit, and the pool
 * starts a fresh worker. The workers are real threads (Node's, made to look
 * like Web Workers to the pool) running test/worker/fixtures/held-warm-up.mjs.
 */
import { Worker as NodeWorker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { isWarmUpStall } from '../../src/worker/warm-up-limit.ts';
import type { VerifierClient } from '../../src/core/service/client.ts';
import { webVerifier } from '../../src/worker/web-pool.ts';

const SCRIPT = new URL('./fixtures/held-warm-up.mjs', import.meta.url);
const LIMIT_MS = 300;

interface Made {
  readonly hold: boolean;
  exited: boolean;
  ownTimerFired: boolean;
}

/** A factory of real worker threads behind the Web Worker surface the pool uses; the first `held` of them hold their thread in the warm-up. */
function threads(held: number) {
  const made: Made[] = [];
  const factory = () => {
    const record: Made = { hold: made.length < held, exited: false, ownTimerFired: false };
    made.push(record);
    const thread = new NodeWorker(SCRIPT, { workerData: { hold: record.hold } });
    const target = new EventTarget();
    thread.on('message', (data: unknown) => {
      if (data && typeof data === 'object' && 'ownTimerFired' in data) record.ownTimerFired = true;
      else target.dispatchEvent(new MessageEvent('message', { data }));
    });
    thread.on('exit', () => (record.exited = true));
    return Object.assign(target, {
      postMessage: (message: unknown, transfer?: Transferable[]) => thread.postMessage(message, transfer as never),
      terminate: () => void thread.terminate(),
    }) as unknown as Worker;
  };
  return { made, factory };
}

let pool: VerifierClient | undefined;
afterEach(() => void pool?.dispose());

async function until(probe: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('waited too long');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the page's warm-up limit", () => {
  it('replaces a worker whose warm-up holds its thread, and starts on the fresh one', async () => {
    const { made, factory } = threads(1);
    pool = webVerifier(factory, 1, LIMIT_MS);
    const info = await pool.warm();
    expect(info.steps?.warmUp).toBe(1);
    expect(made.map((m) => m.hold)).toEqual([true, false]);
    // The held worker was stopped, and its own timer never fired: a limit kept there would have waited forever.
    await until(() => made[0]!.exited);
    expect(made[0]!.ownTimerFired).toBe(false);
  });

  it('fails the start with the warm-up stall once every start held', async () => {
    const { made, factory } = threads(3);
    pool = webVerifier(factory, 1, LIMIT_MS);
    const error = await pool.warm().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isWarmUpStall(error), String(error)).toBe(true);
    expect(made).toHaveLength(3);
    await until(() => made.every((m) => m.exited));
  });
});
