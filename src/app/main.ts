/**
 * Entry point: make the page cross-origin isolated if needed, then mount the
 * app. Monaco (the largest download, and what the first screen waits for) is
 * requested before anything else is evaluated, so it loads while the app
 * chunk is parsed; on the playground, Z3's worker starts before the app
 * mounts.
 */
const monacoLoading = import('./lib/monaco.ts');

/** The playground (and a share link, which opens in it): Verify is its first action. */
const opensPlayground = (hash: string) => /^(#\/?)?$|^#\/(play|s\/)/.test(hash);

async function start() {
  const [{ ensureIsolation, registerForOffline }, { verifier }] = await Promise.all([import('./lib/cross-origin.ts'), import('./state/verifier.svelte.ts')]);
  const shell = Promise.all([import('svelte'), import('./App.svelte'), import('./styles/app.css')]);
  if (await ensureIsolation()) return; // Reloading under the service worker.
  // Z3 takes the longest to load: the playground starts it now, while the page and the editor load, rather than once mounted.
  if (opensPlayground(location.hash)) void verifier.warm();
  const [{ mount }, { default: App }] = await shell;
  mount(App, { target: document.getElementById('app')! });
  registerForOffline(verifier.settled);
}

monacoLoading.catch(() => undefined);
void start();
