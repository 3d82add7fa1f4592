/**
 * The page's verifier worker: Z3 (WASM, with its own pthreads) plus the pure
 * core, serving `VerifierApi` (src/core/pool/serve.ts) to the page's pool over
 * Comlink. The CLI's worker threads serve the same object; only the Z3 loader
 * differs.
 */
import * as Comlink from 'comlink';
import { serveVerifier } from '../core/pool/serve.ts';
import { createEngine } from '../core/smt/solver.ts';
import { reportCrashes } from './crash-report.ts';
import { loadZ3, z3LastWords, z3Memory } from './z3-browser.ts';

reportCrashes(self, z3LastWords);

Comlink.expose(
  serveVerifier({
    loadEngine: async () => createEngine(await loadZ3()),
    isolated: () => self.crossOriginIsolated === true,
    memory: z3Memory,
    now: () => performance.timeOrigin + performance.now(),
  }),
);
