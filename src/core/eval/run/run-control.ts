/**
 * Pause, resume and cancel for a running run (runner.ts): the app's
 * buttons and the CLI's signals drive it, the run loop waits on it.
 */

/** Pause, resume and cancel for a running run. */
export class RunControl {
  private readonly controller = new AbortController();
  private paused = false;
  private waiters: (() => void)[] = [];

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** No new request starts until resume(); requests and gradings under way finish. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const w of this.waiters.splice(0)) w();
  }

  /** Stops at once: requests in flight are abandoned, nothing new is sent. */
  cancel(): void {
    this.controller.abort();
    this.resume();
  }

  /** Resolves when not paused (or cancelled). */
  async whileNotPaused(signal?: AbortSignal): Promise<void> {
    while (this.paused && !this.signal.aborted && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }
}
