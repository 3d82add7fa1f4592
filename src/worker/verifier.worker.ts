/**
 * The page's verifier worker. Its first act is to start loading Z3 (reserve
 * the memory, start the wasm's download and streaming compile, and the
 * glue's download: src/worker/z3-start.ts), and only then does it import
 * the rest of its code (src/worker/verifier-core.ts: the core and z3-solver's
 * API, most of the worker's bytes), so the 35 MB wasm is on its way while
 * those download and run (docs/app.md, "Loading Z3"). Meanwhile it already
 * answers Comlink: each call waits for the rest to be here.
 *
 * The page's lint worker runs this same script and never loads Z3; its name
 * says which it is (src/worker/verifier-spawn.ts).
 */
import * as Comlink from 'comlink';
import type { VerifierApi } from '../core/pool/contract.ts';
import { reportCrashes } from './crash-report.ts';
import { loadsZ3, startZ3 } from './z3-start.ts';

/** WebKit (Safari, WebKitGTK): the wasm started here was downloaded twice and the first verdict came later (docs/app.md, "Z3's load before the page's and the worker's code"); there Z3 starts when the page asks. */
const webkit = /AppleWebKit/.test(self.navigator.userAgent) && !/Chrome|Chromium|Edg\//.test(self.navigator.userAgent);

if (loadsZ3(self.name) && !webkit) {
  try {
    startZ3();
  } catch {
    // This browser cannot run Z3: the page's first call hears why (loadZ3 tries again and throws it).
  }
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
