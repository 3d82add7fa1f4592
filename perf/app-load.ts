/**
 * App load benchmark: builds the site (or reuses a build of the same
 * sources), serves it with `vite preview`, and measures in a cold browser
 * (Chromium, Firefox ESR or WebKitGTK, through test/e2e/driver.ts):
 *
 *   - time to an interactive editor (navigation start -> Monaco editable),
 *   - time to the first verdict after a cold load (navigation start -> verdict
 *     shown, clicking Verify as soon as the editor is ready),
 *   - warm re-verify time (same spec again in the same tab),
 *   - bytes transferred by the first load (everything the server sent until the
 *     first verdict, Z3's wasm included), from `vite preview` (uncompressed) and
 *     from a static host that compresses with gzip or brotli, as most do
 *     (perf/compressing-host.ts).
 *
 * Targets: editor < 2 s, first verdict < 5 s, warm re-verify < 1 s, at most
 * 12 MB over the network on the first visit from a compressing host.
 * Run: npx tsx perf/app-load.ts [--browser chromium|firefox|webkit|all] [--handler NAME] [--runs N] [--no-compressed]
 * With --browser all the engines take turns, run by run, so that they share
 * the machine's load alike; the summary gives each one's medians and its
 * ratio to Chromium's.
 */
import type { Socket } from 'node:net';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { ENGINES, type Engine, type EngineName, type Tab, launchEngine } from '../test/e2e/driver.ts';
import { ensureBuilt, serve } from '../test/e2e/harness.ts';
import { serveCompressed } from './compressing-host.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const handler = arg('handler', 'sys_set_runnable');
const runs = Number(arg('runs', '3'));
const browserArg = arg('browser', 'chromium');
const browsers: EngineName[] = browserArg === 'all' ? [...ENGINES] : [browserArg as EngineName];
if (!browsers.every((b) => ENGINES.includes(b))) throw new Error(`--browser must be one of ${ENGINES.join(', ')} or all`);
const compressedToo = !process.argv.includes('--no-compressed');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface LoadResult {
  editor: number;
  first: number;
  warm: number;
  bytes: number;
  status: string;
}

const EDITOR_READY = () => !!document.querySelector('[data-testid="spec-editor"][data-ready="true"] .monaco-editor textarea, [data-testid="spec-editor"][data-ready="true"] .monaco-editor .native-edit-context');

async function setSpec(tab: Tab, text: string): Promise<void> {
  await tab.eval((t: string) => {
    const el = document.querySelector('[data-testid="spec-editor"]') as (HTMLElement & { monacoEditor?: { setValue(v: string): void } }) | null;
    if (!el?.monacoEditor) throw new Error('editor not mounted');
    el.monacoEditor.setValue(t);
  }, text);
}

/** One cold load in a fresh profile (empty HTTP cache, storage and service workers). */
async function coldLoad(engine: Engine, url: string, written: () => number, spec: string): Promise<LoadResult> {
  const tab = await engine.open(1280, 800);
  try {
    const before = written();
    const start = Date.now();
    await tab.goto(`${url}#/play`);
    await tab.waitFor('the editor', EDITOR_READY, 120_000);
    const editor = Date.now() - start;
    if ((await tab.eval(() => (document.querySelector('[data-testid="handler"]') as HTMLSelectElement).value)) !== handler) {
      await tab.select('[data-testid="handler"]', handler);
      await tab.waitFor('the editor', EDITOR_READY, 120_000);
    }
    await setSpec(tab, spec);
    await tab.click('[data-testid="verify"]');
    await tab.waitFor('a verdict', () => !!document.querySelector('[data-testid="verdict"]'), 300_000);
    const first = Date.now() - start;
    const status = (await tab.eval(() => document.querySelector('[data-testid="verdict"]')?.getAttribute('data-status'))) ?? '?';
    const bytes = written() - before;

    // Warm: the same spec again in the same tab; wait for the finished-run counter to move.
    const runsBefore = Number(await tab.eval(() => document.querySelector('[data-testid="results"]')?.getAttribute('data-runs')));
    const w0 = Date.now();
    await tab.click('[data-testid="verify"]');
    await tab.waitFor('the re-verify', (n: number) => document.querySelector('[data-testid="results"]')?.getAttribute('data-runs') === String(n), 300_000, runsBefore + 1);
    const warm = Date.now() - w0;
    return { editor, first, warm, bytes, status };
  } finally {
    await tab.close();
  }
}

async function main() {
  const spec = oracleSpec(handler);
  if (!spec) throw new Error(`no oracle spec for ${handler}`);
  const t0 = Date.now();
  const outDir = await ensureBuilt();
  console.log(`build ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (${outDir})`);
  const site = await serve(outDir);

  // Count every byte the server writes, per socket, including headers.
  let bytes = 0;
  const sockets = new Set<Socket>();
  site.server.httpServer.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => {
      bytes += s.bytesWritten;
      sockets.delete(s);
    });
  });
  const written = () => bytes + [...sockets].reduce((n, s) => n + s.bytesWritten, 0);

  const engines = new Map<EngineName, Engine>();
  const results = new Map<EngineName, LoadResult[]>(browsers.map((b) => [b, []]));
  const compressed = new Map<EngineName, Record<string, LoadResult>>(browsers.map((b) => [b, {}]));
  try {
    for (const b of browsers) engines.set(b, await launchEngine(b));
    // The engines take turns run by run, so the machine's load falls on all alike.
    for (let r = 0; r < runs; r++) {
      for (const b of browsers) {
        const x = await coldLoad(engines.get(b)!, site.url, written, spec);
        results.get(b)!.push(x);
        console.log(`${b} run ${r + 1}: editor ${x.editor} ms, first verdict ${x.first} ms (${x.status}), warm re-verify ${x.warm} ms, ${(x.bytes / 1e6).toFixed(1)} MB`);
      }
    }
    // The same first visit from a static host that compresses, as most do.
    if (compressedToo) {
      for (const enc of ['gzip', 'br'] as const) {
        const host = await serveCompressed(outDir, enc);
        try {
          // A first load fills the host's compression memo, so the measured ones are not slowed by compressing.
          await coldLoad(engines.get(browsers[0])!, host.url, host.written, spec);
          for (const b of browsers) {
            const x = await coldLoad(engines.get(b)!, host.url, host.written, spec);
            compressed.get(b)![enc] = x;
            console.log(`${b} ${enc} host: editor ${x.editor} ms, first verdict ${x.first} ms (${x.status}), warm re-verify ${x.warm} ms, ${(x.bytes / 1e6).toFixed(1)} MB`);
          }
        } finally {
          await host.close();
        }
      }
    }
  } finally {
    for (const e of engines.values()) await e.close().catch(() => undefined);
    await site.close();
  }

  const mark = (ok: boolean) => (ok ? 'ok' : 'over target');
  const mb = (n: number) => (n / 1e6).toFixed(1).padStart(6);
  const medians = new Map<EngineName, { editor: number; first: number; warm: number; bytes: number }>();
  for (const b of browsers) {
    const xs = results.get(b)!;
    medians.set(b, { editor: median(xs.map((x) => x.editor)), first: median(xs.map((x) => x.first)), warm: median(xs.map((x) => x.warm)), bytes: median(xs.map((x) => x.bytes)) });
  }
  const base = medians.get('chromium');
  const ratio = (b: EngineName, k: 'editor' | 'first' | 'warm') => (base && b !== 'chromium' ? ` (${(medians.get(b)![k] / base[k]).toFixed(2)}x Chromium)` : '');
  for (const b of browsers) {
    const m = medians.get(b)!;
    console.log(`\n${b}: handler ${handler}, median of ${runs} cold loads`);
    console.log(`time to interactive editor   ${String(m.editor).padStart(6)} ms   target < 2000 ms   ${mark(m.editor < 2000)}${ratio(b, 'editor')}`);
    console.log(`time to first verdict (cold) ${String(m.first).padStart(6)} ms   target < 5000 ms   ${mark(m.first < 5000)}${ratio(b, 'first')}`);
    console.log(`warm re-verify               ${String(m.warm).padStart(6)} ms   target < 1000 ms   ${mark(m.warm < 1000)}${ratio(b, 'warm')}`);
    console.log(`transferred on first load    ${mb(m.bytes)} MB   uncompressed (vite preview)`);
    for (const [enc, x] of Object.entries(compressed.get(b)!)) {
      console.log(`transferred on first load    ${mb(x.bytes)} MB   from a ${enc} host      target <= 12 MB   ${mark(x.bytes <= 12e6)}`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
