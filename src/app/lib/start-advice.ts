/**
 * What the page tells a person to do when Z3 did not start after the pool's
 * own tries (src/worker/web-pool.ts, START_RETRIES). A load that failed is
 * most often the network; a warm-up that never answered is Z3's threads not
 * starting (docs/app.md, "Browser support"), which a reload or Z3 in the
 * worker's one thread gets past, and the network advice would mislead.
 */
import { isWarmUpStall } from '../../worker/warm-up-limit.ts';

const NETWORK = 'Check the network connection and reload the page; Verify tries again too. If it keeps failing, the browser console has the details.';
const THREADS =
  "Z3's threads did not start in this browser: reload the page. If it keeps happening, add ?z3-threads=0 to the address (before any #) to run Z3 in one thread.";

/** The sentence to put after the error's own message. */
export function startAdvice(error: unknown): string {
  return isWarmUpStall(error) ? THREADS : NETWORK;
}
