/**
 * The script index.html runs as it is parsed, before the app's entry script
 * has even been requested: on a share link's page it starts the verifier
 * worker, so the worker's code (which the first verdict waits for) starts
 * downloading one round trip and one script sooner than from src/app/main.ts
 * (docs/app.md, "Loading Z3"). vite.config.ts puts it into the built
 * index.html with the built worker's URL; src/worker/verifier-spawn.ts
 * takes the worker it left in `self.osvlabEarlyVerifier`, and what the
 * worker sent meanwhile. Where a setting names Z3's memory or threads (the
 * worker's name carries them, src/worker/verifier-spawn.ts) it starts
 * nothing, and main.ts starts the worker as before.
 */

/** Where the script leaves the worker for verifier-spawn.ts. */
export const EARLY_VERIFIER_GLOBAL = 'osvlabEarlyVerifier';

/** What the script leaves there: the worker, and the events it sent until it is taken. */
export interface EarlyVerifier {
  readonly worker: Worker;
  readonly heard: Event[];
  readonly keep: (e: Event) => void;
}

/** The inline script's text, for a worker script at `workerUrl` (relative to the page). */
export function earlyVerifierScript(workerUrl: string): string {
  const body = `
(function () {
  try {
    if (!/^#\\/s\\//.test(location.hash) || !self.crossOriginIsolated) return;
    if (/[?&]z3-(memory|threads)=/.test(location.search) || localStorage.getItem('osvlab.z3-memory') !== null) return;
    var worker = new Worker(${JSON.stringify(workerUrl)}, { type: 'module', name: 'osvlab-verifier' });
    var heard = [];
    var keep = function (e) { heard.push(e); };
    worker.addEventListener('error', keep);
    worker.addEventListener('message', keep);
    self.${EARLY_VERIFIER_GLOBAL} = { worker: worker, heard: heard, keep: keep };
  } catch (e) {
    // No storage, no module workers: src/app/main.ts starts the worker.
  }
})();
`;
  return body.trim();
}
