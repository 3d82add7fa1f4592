/**
 * The page's verifier worker. Its first act is to start loading Z3 (reserve
 * the memory, start the wasm's download and streaming compile, and the
 * glue's download: src/worker/z3-start.ts), and only then does it import
 * the rest of its code (src/worker/verifier-core.ts: the core and z3-solver's
 * API, most of the worker's bytes), so the 35 MB wasm is on its way while
 * those download and run (docs/app.md, "Loading Z3"). Meanwhile it already
 * answers Comlink: each call waits for the rest to be here.
 *
 * This module is the worker's main script, and no other module may import
 * from it. WebKit does not keep a worker's main module in the worker's module
 * map: a chunk that imports from the main script's URL runs it a second time
 * in the same worker (a second Comlink.expose, so every call ran twice, and a
 * second z3-start, so the wasm downloaded twice; docs/measurements.md, "Z3's
 * load before the page's and the worker's code"). The bundler puts a module that
 * both this file and verifier-core.ts import statically into this file's
 * chunk, so z3-start.ts, which they share, comes with import() here, and the
 * worker's name is tested here rather than by a shared helper;
 * test/e2e/platform.test.ts checks the built chunks.
 *
 * The page's lint worker runs this same script and never loads Z3; its name
 * says which it is (src/worker/verifier-spawn.ts).
 */
import * as Comlink from 'comlink';
import type { VerifierApi } from '../core/service/contract.ts';
import { reportCrashes } from './crash-report.ts';

/** A verifier worker (named so by src/worker/verifier-spawn.ts) loads Z3; the lint worker never does. */
if (/^osvlab-verifier\b/.test(self.name)) {
  import('./z3-start.ts')
    .then(({ startZ3 }) => startZ3())
    // This browser cannot run Z3, or the chunk did not load: the page's first call hears why (loadZ3 tries again and throws it).
    .catch(() => undefined);
}

const core = import('./verifier-core.ts');
let lastWords: () => string | undefined = () => undefined;
core.then((c) => (lastWords = c.z3LastWords)).catch(() => undefined);
reportCrashes(self, () => lastWords());

/** Every method of `VerifierApi`, as the core's own once it has loaded (a core that did not load fails each call, so the page starts the worker again). */
const api = new Proxy({} as VerifierApi, {
  get: (_target, method) => async (...args: unknown[]) => {
    const served = (await core).api as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>;
    return served[method](...args);
  },
});

Comlink.expose(api);
