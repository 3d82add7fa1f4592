/**
 * The one error that says Z3 cannot run in this browser at all (no
 * WebAssembly, no shared memory, too little memory: docs/app.md, "When Z3
 * cannot run"). The worker throws it (src/z3/start.ts); the pool does
 * not start such a worker again (src/worker/web-pool.ts) and the page shows
 * its message as it is (src/app/state/verifier.svelte.ts). Comlink sends an
 * error's name and message, not its class, so the page knows it by name.
 */
const NAME = 'Z3UnavailableError';

/** Z3 cannot run in this browser; the message is the sentence to show (src/z3/obstacle.ts). */
export class Z3UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = NAME;
  }
}

/** Is `e` a Z3UnavailableError, here or as it arrives from a worker? */
export function isZ3Unavailable(e: unknown): e is Error {
  return e instanceof Error && e.name === NAME;
}
