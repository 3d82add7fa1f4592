/** A clock whose sleeps take no time: it records each wait and moves "now" forward. */
import type { Clock } from '../../src/core/llm/clock.ts';
import { abortedError } from '../../src/core/llm/errors.ts';

export class FakeClock implements Clock {
  t = Date.parse('2025-06-01T12:00:00Z');
  readonly sleeps: number[] = [];
  /** Called inside each sleep, e.g. to abort mid-wait. */
  onSleep?: (ms: number) => void;

  now(): number {
    return this.t;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortedError();
    this.sleeps.push(ms);
    this.t += ms;
    this.onSleep?.(ms);
    await Promise.resolve();
    if (signal?.aborted) throw abortedError();
  }
}
