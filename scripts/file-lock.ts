/**
 * One writer at a time for a file that several processes read, merge into
 * and write back (the proof files, which `gen-lemma-proofs.ts --shard i/n`
 * processes fill side by side): without it, two shards that read the file
 * before either wrote it each write back their own entries over the
 * other's, and a handler's proof is lost (3 of 50 in one regeneration).
 *
 * The lock is a file made with O_EXCL next to the target; a lock older
 * than `staleMs` is taken to belong to a process that died holding it.
 */
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Runs `fn` while holding `${path}.lock`, waiting for it as long as another process holds it. */
export function withFileLock<T>(path: string, fn: () => T, staleMs = 300_000): T {
  const lock = `${path}.lock`;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(lock).mtimeMs > staleMs) unlinkSync(lock);
      } catch {
        // Released (or cleared by another waiter) meanwhile: try again.
      }
      Atomics.wait(pause, 0, 0, 10);
    }
  }
  try {
    return fn();
  } finally {
    unlinkSync(lock);
  }
}
