/**
 * The verifier worker's body (src/worker/verifier.worker.ts loads it): Z3
 * (WASM, with its own pthreads) plus the pure core, as the `VerifierApi`
 * (src/core/service/serve.ts) the page's pool calls over Comlink. The CLI's
 * worker threads serve the same object; only the Z3 loader differs.
 */
import type { ShippedProgram } from '../core/kernel/program.ts';
import { serveVerifier } from '../core/service/serve.ts';
import { createEngine, warmUp } from '../core/smt/solver.ts';
import { loadZ3, z3LoadSteps, z3Memory } from '../z3/browser.ts';
import { threadWorkersTaken } from '../z3/threads.ts';
// The kernel's program as `npm run bundle` made it, with this code (26 kB with brotli): a chunk of its own was
// fetched after it, a round trip later and beside Z3's wasm (docs/measurements.md, "The kernel's program made at
// build time").
import kernelForm from '../../tasks/hv6/kernel-program.json';

export { z3LastWords } from '../z3/browser.ts';

/** Milliseconds the warm-up took, once done. */
let warmedInMs: number | undefined;

export const api = serveVerifier({
  loadEngine: async () => createEngine(await loadZ3()),
  warmUp: async (engine) => {
    // Where Z3 runs in this worker's one thread (Firefox, WebKitGTK) there are no threads to start: no warm-up, so a
    // verification that needs no query (a correct spec whose proofs are stored) is not kept waiting for two
    // (80-330 ms in WebKitGTK; docs/app.md, "Loading Z3").
    if (!z3Memory()?.threads) return;
    // The first checks start Z3's threads (about a second in Chromium here): done while the page loads, as the CLI does,
    // instead of in the first Verify (docs/app.md, "Loading Z3"). The page bounds it (src/worker/warm-up-limit.ts).
    const t0 = performance.now();
    await warmUp(engine);
    warmedInMs = Math.round(performance.now() - t0);
  },
  isolated: () => self.crossOriginIsolated === true,
  memory: z3Memory,
  loadSteps: () => {
    const steps = z3LoadSteps();
    if (!steps || !steps.threadsGetModule) return steps;
    return warmedInMs !== undefined ? { ...steps, warmUp: warmedInMs, threadsAhead: threadWorkersTaken() } : steps;
  },
  kernelForm: async () => kernelForm as ShippedProgram,
  origin: performance.timeOrigin,
  now: () => performance.timeOrigin + performance.now(),
});
