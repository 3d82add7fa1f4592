/**
 * Entry point: make the page cross-origin isolated if needed, then mount the
 * app. On the playground (and a share link) Z3's worker is started first
 * thing, before the app's code loads, and parses the kernel as soon as its
 * code is in; Z3 loads when the page asks, on a share link once its first
 * verdict is in (docs/app.md, "Loading Z3"); Monaco waits for the first verdict (Playground.svelte);
 * elsewhere Monaco (the largest download after Z3, and what those pages'
 * first screen waits for) is requested before anything else is evaluated,
 * so it loads while the app chunk is parsed.
 */

import { foreseeEarly, startVerifierEarly } from '../worker/verifier-spawn.ts';

// When the app's script runs (perf/app-load.ts: the phases of the first verdict).
performance.mark('osvlab:app-script');

/** The playground (and a share link, which opens in it): Verify is its first action. */
const opensPlayground = (hash: string) => /^(#\/?)?$|^#\/(play|s\/)/.test(hash);

/** A share link: the playground verifies it as it opens. */
const opensShareLink = (hash: string) => /^#\/s\//.test(hash);

// Z3 takes the longest to load. A page that is not isolated yet may reload under the service worker first (ensureIsolation): it starts the worker after that.
if (opensPlayground(location.hash) && window.crossOriginIsolated) {
  startVerifierEarly();
  if (opensShareLink(location.hash)) void foreseeShareLink(location.hash.slice('#/s/'.length).split('/')[0]);
}

/**
 * A share link's verification, told to the worker while the page's code
 * still loads: it runs once the worker's code and the kernel are in, and the
 * playground's request, the same one, is answered by it. A link that names a
 * buggy variant needs the task bundle for its request, and is not foreseen.
 */
async function foreseeShareLink(payload: string): Promise<void> {
  try {
    const { decodeShared } = await import('./lib/share.ts');
    const s = await decodeShared(payload);
    if (!s.variant) foreseeEarly({ handler: s.handler, spec: s.spec, timeoutMs: s.options.timeoutMs, strict: s.options.strict });
  } catch {
    // The playground says why the link cannot be opened.
  }
}

const monacoLoading = opensPlayground(location.hash) ? Promise.resolve() : import('./lib/monaco.ts');

async function start() {
  // All of the app's code is requested at once: on a slow network each round trip saved is a share link's verdict sooner.
  const services = Promise.all([import('./lib/cross-origin.ts'), import('./state/verifier.svelte.ts')]);
  const shell = Promise.all([import('svelte'), import('./App.svelte'), import('./styles/app.css')]);
  shell.catch(() => undefined);
  const [{ ensureIsolation, registerForOffline }, { verifier }] = await services;
  if (await ensureIsolation()) return; // Reloading under the service worker.
  // The pool takes the worker started above; the page's code and the editor load meanwhile, and the app mounts.
  // A share link's verification asks for Z3 itself, once its first verdict is in (verifier.svelte.ts): Z3's download
  // and compile do not share the network and the CPU with that verdict.
  if (opensPlayground(location.hash) && !opensShareLink(location.hash)) void verifier.warm();
  const [{ mount }, { default: App }] = await shell;
  mount(App, { target: document.getElementById('app')! });
  // The offline copy (every page's code, Monaco, the token table) waits for Z3 and for the playground's first verdict if one is under way.
  const { playground } = await import('./state/app.svelte.ts');
  registerForOffline(verifier.settled.then(() => playground.whenIdle()));
}

monacoLoading.catch(() => undefined);
void start();
