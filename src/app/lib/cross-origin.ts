/**
 * Cross-origin isolation and the service worker (public/sw.js).
 *
 * When the server already sends COOP/COEP, the page is isolated and the
 * service worker is registered later, only for offline use. When it does not,
 * the service worker is registered at once and the page reloads one time
 * under its control, which adds the headers. If the page is still not
 * isolated after that, `isolationProblem` says why in plain words.
 */
const RELOADED = 'osvlab.coi-reload';

/** Registers the service worker; resolves to true when the page is about to reload. */
export async function ensureIsolation(): Promise<boolean> {
  if (window.crossOriginIsolated) {
    sessionStorage.removeItem(RELOADED);
    return false;
  }
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  if (sessionStorage.getItem(RELOADED)) return false; // Tried once already: do not loop.
  try {
    // Some browsers (and policies) leave a blocked registration pending forever:
    // give up on it after a while and start the app without isolation.
    const blocked = new Promise<undefined>((r) => setTimeout(() => r(undefined), 8000));
    const registration = await Promise.race([navigator.serviceWorker.register('./sw.js', { scope: './' }), blocked]);
    if (!registration || !(await activated(registration))) return false;
    sessionStorage.setItem(RELOADED, '1');
    location.reload();
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves true once `registration` has an active worker, however long its
 * install takes (a slow network, a busy phone: a fixed bound here once left
 * a page without isolation, so without Z3, for the whole visit), and false
 * when the install fails (the worker becomes redundant and none follows it).
 */
function activated(registration: ServiceWorkerRegistration): Promise<boolean> {
  if (registration.active) return Promise.resolve(true);
  return new Promise((resolve) => {
    void navigator.serviceWorker.ready.then(() => resolve(true));
    const watch = (worker: ServiceWorker | null) =>
      worker?.addEventListener('statechange', () => {
        if (worker.state !== 'redundant') return;
        const next = registration.installing ?? registration.waiting;
        if (next) watch(next);
        else if (!registration.active) resolve(false);
      });
    watch(registration.installing ?? registration.waiting);
  });
}

/**
 * For offline use: registers the service worker after `settled` (Z3 loaded) and
 * a quiet moment, never during the first load, where its precaching would
 * compete with the app for the network and the CPU.
 */
export function registerForOffline(settled: Promise<unknown>, maxWaitMs = 20_000): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const go = () => void navigator.serviceWorker.register('./sw.js', { scope: './' }).catch(() => undefined);
  const later = () => ('requestIdleCallback' in window ? requestIdleCallback(go, { timeout: 5000 }) : setTimeout(go, 2000));
  let done = false;
  const once = () => {
    if (!done) {
      done = true;
      setTimeout(later, 1000);
    }
  };
  settled.then(once, once);
  setTimeout(once, maxWaitMs);
}

/** Why the page is not isolated, in plain words, or undefined when it is. */
export function isolationProblem(): string | undefined {
  if (window.crossOriginIsolated) return undefined;
  if (!window.isSecureContext) return 'This page is served over plain HTTP from a non-local address. Browsers only allow the isolation Z3 needs on HTTPS or localhost.';
  if (!('serviceWorker' in navigator)) return 'This browser has service workers disabled (private windows often do), and the server does not send the isolation headers.';
  return 'The server does not send the Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers, and the service worker that adds them could not take over this page.';
}
