/**
 * Entry point: make the page cross-origin isolated if needed, then mount the
 * app. Monaco (the largest download, and what the first screen waits for) is
 * requested before anything else is evaluated, so it loads while the app
 * chunk is parsed.
 */
const monacoLoading = import('./lib/monaco.ts');

async function start() {
  const [{ ensureIsolation, registerForOffline }, { mount }, { default: App }, { verifier }] = await Promise.all([
    import('./lib/cross-origin.ts'),
    import('svelte'),
    import('./App.svelte'),
    import('./state/verifier.svelte.ts'),
    import('./styles/app.css'),
  ]);
  if (await ensureIsolation()) return; // Reloading under the service worker.
  mount(App, { target: document.getElementById('app')! });
  registerForOffline(verifier.settled);
}

monacoLoading.catch(() => undefined);
void start();
