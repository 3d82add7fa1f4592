import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin } from 'vite';
import { BUILD_STAMP, appFileHashes } from './src/cli/app-files.ts';

// Z3's wasm build uses pthreads, which need SharedArrayBuffer, which needs a
// cross-origin isolated page. Static hosts that cannot send these headers get
// them from public/sw.js instead (see docs/app.md).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Sends the isolation headers on every response, a 304 included. Vite hands
 * `server.headers`/`preview.headers` to its static file server only for a
 * full response, so a revalidated file came back as a 304 without COEP and
 * CORP; WebKitGTK judges a worker script by that 304 and refuses it (the
 * worker fails to start with a bare error event). With no-cache assets
 * every second start of the verifier worker failed there (docs/app.md,
 * "Browser support").
 */
function isolationOnEveryResponse(): Plugin {
  const setAll = (_req: unknown, res: { setHeader(name: string, value: string): void }, next: () => void) => {
    for (const [name, value] of Object.entries(isolation)) res.setHeader(name, value);
    next();
  };
  return {
    name: 'osvlab-isolation-headers',
    configureServer: (server) => void server.middlewares.use(setAll),
    configurePreviewServer: (server) => void server.middlewares.use(setAll),
  };
}

/** Lists every emitted file in sw-manifest.json, which public/sw.js precaches for offline use. */
function swManifest(): Plugin {
  return {
    name: 'osvlab-sw-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => !f.endsWith('.map'));
      this.emitFile({ type: 'asset', fileName: 'sw-manifest.json', source: JSON.stringify({ files }) });
    },
  };
}

/**
 * Writes osvlab-build.json: the app and verifier versions the site was built
 * from (tasks/hv6/bundle.json, as src/core/version.ts reads them) and the
 * SHA-256 of every file of the build. `osvlab publish` copies a build only
 * when the versions are its own and every file is the one built
 * (docs/publish.md). Written last, once every file (the public folder's too)
 * is in the output folder.
 */
function buildStamp(): Plugin {
  let outDir = 'dist';
  return {
    name: 'osvlab-build-stamp',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const bundle = JSON.parse(readFileSync(new URL('./tasks/hv6/bundle.json', import.meta.url), 'utf8'));
      const stamp = { app: bundle.appVersion, verifier: `v-${bundle.verifierHash}`, files: appFileHashes(outDir) };
      writeFileSync(join(outDir, BUILD_STAMP), JSON.stringify(stamp));
    },
  };
}

export default defineConfig({
  // Relative asset URLs so the built site works from any sub-path of any static host.
  base: './',
  plugins: [svelte(), isolationOnEveryResponse(), swManifest(), buildStamp()],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es' },
  // Without these the dev server discovers them when the worker first imports
  // them and reloads the page mid-session (and mid-test).
  optimizeDeps: {
    include: [
      'z3-solver',
      'comlink',
      'dexie',
      'monaco-editor/editor',
      'monaco-editor/features/hover/register',
      'monaco-editor/features/suggest/register',
      'monaco-editor/editor/contrib/suggest/browser/suggestController.js',
      'monaco-editor/features/diffEditor/register',
      'monaco-editor/features/find/register',
      'monaco-editor/languages/definitions/python/register',
      'monaco-editor/languages/definitions/cpp/register',
    ],
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 6000,
  },
});
