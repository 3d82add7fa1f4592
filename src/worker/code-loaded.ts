/**
 * The note a verifier worker posts to the page once its own code has loaded
 * (src/worker/verifier.worker.ts), which the page's entry waits for on a share
 * link before it loads the app's code (src/worker/verifier-spawn.ts,
 * src/app/main.ts). Its own file: the worker's entry and the page's entry
 * share this one constant and nothing else (the worker's entry may import
 * only what no other chunk of the worker imports; see verifier.worker.ts).
 */
export const VERIFIER_CODE_LOADED = 'osvlabVerifierCodeLoaded';

/** Whether a message from a verifier worker is that note. */
export function isCodeLoadedNote(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>)[VERIFIER_CODE_LOADED] === true;
}
