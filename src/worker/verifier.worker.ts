/**
 * The page's verifier worker. It imports the rest of its code first
 * (src/worker/verifier-core.ts: the core and z3-solver's API, most of the
 * worker's bytes); once that is in, a verifier worker parses the kernel,
 * and it starts loading Z3 (reserve the memory, start the wasm's download
 * and streaming compile, and the glue's download: src/z3/start.ts, through
 * src/z3/browser.ts) when the page asks for Z3. The first verdict of a spec
 * that needs no query waits for that code and the kernel, and not for Z3:
 * on a slow network the 5 MB wasm took most of the bandwidth the worker's
 * and the page's code needed (docs/measurements.md, "A share link on a
 * phone"). Meanwhile the worker already answers Comlink: each call waits
 * for the rest to be here.
 *
 * This module is the worker's main script, and no other module may import
 * from it. WebKit does not keep a worker's main module in the worker's module
 * map: a chunk that imports from the main script's URL runs it a second time
 * in the same worker (a second Comlink.expose, so every call ran twice, and a
 * second src/z3/start.ts, so the wasm downloaded twice; docs/measurements.md, "Z3's
 * load before the page's and the worker's code"). The bundler puts a module that
 * both this file and verifier-core.ts import statically into this file's
 * chunk, so this file imports nothing verifier-core.ts imports, and the
 * worker's name is tested here rather than by a shared helper;
 * test/e2e/platform.test.ts checks the built chunks.
 *
 * The page's lint worker runs this same script and never loads Z3; its name
 * says which it is (src/worker/verifier-spawn.ts).
 */
import * as Comlink from 'comlink';
import type { VerifierApi } from '../core/service/contract.ts';
import type { VerifyRequest } from '../core/verify/driver.ts';
import { reportCrashes } from './crash-report.ts';

const core = import('./verifier-core.ts');

/**
 * A verifier worker (named so by src/worker/verifier-spawn.ts), once its own
 * code is in, parses the kernel, the longest step of a first verdict that
 * needs no query. It starts loading Z3 when the page asks (`init`): on a
 * share link once the page's code is in, which on a slow network would
 * otherwise share the bandwidth with the 5 MB wasm (docs/app.md, "Loading
 * Z3"). The lint worker does neither.
 */
if (/^osvlab-verifier\b/.test(self.name)) {
  core
    .then((c) => c.api.prepare())
    // A chunk did not load: the page's first call hears why.
    .catch(() => undefined);
}
let lastWords: () => string | undefined = () => undefined;
core.then((c) => (lastWords = c.z3LastWords)).catch(() => undefined);
reportCrashes(self, () => lastWords());

/**
 * A share link's request, posted by the page before it wraps this worker in
 * Comlink (src/worker/verifier-spawn.ts, `foreseeEarly`): verified as soon as
 * the kernel is read, while the page's own code still loads. Registered
 * before Comlink's listener, which never sees it.
 */
self.addEventListener('message', (e: MessageEvent) => {
  const req = (e.data as { osvlabForesee?: unknown } | null)?.osvlabForesee;
  if (req === undefined) return;
  e.stopImmediatePropagation();
  core.then((c) => c.api.foresee(req as VerifyRequest)).catch(() => undefined);
});

/** Every method of `VerifierApi`, as the core's own once it has loaded (a core that did not load fails each call, so the page starts the worker again). */
const api = new Proxy({} as VerifierApi, {
  get: (_target, method) => async (...args: unknown[]) => {
    const served = (await core).api as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>;
    return served[method](...args);
  },
});

Comlink.expose(api);
