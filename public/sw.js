/*
 * OSVLab's service worker. Two jobs:
 *
 * 1. Cross-origin isolation on static hosts that cannot send headers: every
 *    same-origin response it serves gets COOP/COEP/CORP added, which makes the
 *    page cross-origin isolated after one reload (Z3's threads need
 *    SharedArrayBuffer). Hosts that do send the headers are left as they are.
 * 2. Offline use after the first visit: the app shell and Z3's glue and wasm
 *    are cached. Pages are fetched network-first (so a new build shows up at
 *    once); hashed assets and Z3 are served cache-first. Z3's wasm is one
 *    file for every memory size (z3-built.wasm): the verifier worker puts it
 *    in the cache as it loads it, and this worker caches it when fetched
 *    through it. It is not precached, which would download it a second time
 *    while the page's worker downloads it.
 *
 * Our own code, written for this app. It is plain JavaScript because public/
 * is copied to the site as is.
 */
// v4: one wasm for every memory size (src/z3/memory.ts); a new name drops the old copies, whose
// z3-built.wasm links only to 2 GiB and whose z3-built-<MiB>m.wasm no page asks for any more (v3: the wasm with
// its exception trampolines inside, src/z3/wasm-invoke.ts, and the glue that sets their flag; v2: the glue
// without its table check).
const CACHE = 'osvlab-v4';
/** Z3's glue and its wasm. */
const Z3_FILE = /\/z3-built\.(?:js|wasm)$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      let files = ['./', 'z3-built.js'];
      try {
        const res = await fetch('sw-manifest.json', { cache: 'no-store' });
        if (res.ok) files = files.concat((await res.json()).files);
      } catch {
        // No manifest (dev server): runtime caching still covers what is used.
      }
      await Promise.all(
        files.map(async (f) => {
          if (await cache.match(f)) return;
          try {
            // 'no-cache' revalidates against the HTTP cache, so files the page has
            // just loaded come back as a 304 instead of a second download.
            await cache.add(new Request(f, { cache: 'no-cache' }));
          } catch {
            // One missing file must not keep the worker from installing.
          }
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

/** Returns `res` with the isolation headers, when it is a response we may rewrite. */
function isolate(res) {
  if (!res || res.status === 0 || res.type === 'opaque' || res.type === 'opaqueredirect') return res;
  if (res.headers.get('Cross-Origin-Embedder-Policy') === 'require-corp') return res;
  const headers = new Headers(res.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

function cacheFirst(url) {
  const path = url.pathname;
  return path.includes('/assets/') || Z3_FILE.test(path);
}

async function handle(request) {
  const cache = await caches.open(CACHE);
  const url = new URL(request.url);
  if (cacheFirst(url)) {
    const hit = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
    if (hit) return isolate(hit);
    const res = await fetch(request);
    if (res.ok) await cache.put(request, res.clone());
    return isolate(res);
  }
  try {
    const res = await fetch(request);
    if (res.ok) await cache.put(request, res.clone());
    return isolate(res);
  } catch (err) {
    const hit = (await cache.match(request, { ignoreSearch: true, ignoreVary: true })) ?? (request.mode === 'navigate' ? await cache.match('./') : undefined);
    if (hit) return isolate(hit);
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Range requests and the service worker's own script go straight to the network.
  if (request.headers.has('range') || url.pathname.endsWith('/sw.js')) return;
  event.respondWith(handle(request));
});
