/**
 * App load benchmark: builds the site (or reuses a build of the same
 * sources), serves it with `vite preview`, and measures in a cold Chromium:
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
 * Run: npx tsx perf/app-load.ts [--handler NAME] [--runs N]
 */
import type { Socket } from 'node:net';
import { oracleSpec } from '../src/core/kernel/content.ts';
import type { Browser } from 'playwright-core';
import { ensureBuilt, launch, newPage, serve, setEditorText, waitForEditor } from '../test/e2e/harness.ts';
import { serveCompressed } from './compressing-host.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const handler = arg('handler', 'sys_set_runnable');
const runs = Number(arg('runs', '3'));

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

/** One cold load in a fresh context (empty HTTP cache, storage and service workers). */
async function coldLoad(browser: Browser, url: string, written: () => number, spec: string): Promise<LoadResult> {
  const { page, context } = await newPage(browser);
  try {
    const before = written();
    const start = Date.now();
    await page.goto(`${url}#/play`);
    await waitForEditor(page);
    const editor = Date.now() - start;
    if ((await page.locator('[data-testid="handler"]').inputValue()) !== handler) {
      await page.selectOption('[data-testid="handler"]', handler);
      await waitForEditor(page);
    }
    await setEditorText(page, spec);
    await page.click('[data-testid="verify"]');
    const verdict = page.locator('[data-testid="verdict"]');
    await verdict.waitFor({ timeout: 120_000 });
    const first = Date.now() - start;
    const status = (await verdict.getAttribute('data-status')) ?? '?';
    const bytes = written() - before;

    // Warm: the same spec again in the same tab; wait for the finished-run counter to move.
    const runsBefore = Number(await page.locator('[data-testid="results"]').getAttribute('data-runs'));
    const w0 = Date.now();
    await page.click('[data-testid="verify"]');
    await page.waitForSelector(`[data-testid="results"][data-runs="${runsBefore + 1}"]`, { timeout: 120_000 });
    const warm = Date.now() - w0;
    return { editor, first, warm, bytes, status };
  } finally {
    await context.close();
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

  const browser = await launch();
  const results: LoadResult[] = [];
  const compressed: Record<string, LoadResult> = {};
  try {
    for (let r = 0; r < runs; r++) {
      const x = await coldLoad(browser, site.url, written, spec);
      results.push(x);
      console.log(
        `run ${r + 1}: editor ${x.editor} ms, first verdict ${x.first} ms (${x.status}), warm re-verify ${x.warm} ms, ${(x.bytes / 1e6).toFixed(1)} MB`,
      );
    }
    // The same first visit from a static host that compresses, as most do.
    for (const enc of ['gzip', 'br'] as const) {
      const host = await serveCompressed(outDir, enc);
      try {
        // A first load fills the host's compression memo, so the measured one is not slowed by compressing.
        await coldLoad(browser, host.url, host.written, spec);
        const x = await coldLoad(browser, host.url, host.written, spec);
        compressed[enc] = x;
        console.log(`${enc} host: editor ${x.editor} ms, first verdict ${x.first} ms (${x.status}), warm re-verify ${x.warm} ms, ${(x.bytes / 1e6).toFixed(1)} MB`);
      } finally {
        await host.close();
      }
    }
  } finally {
    await browser.close();
    await site.close();
  }

  const m = {
    editor: median(results.map((x) => x.editor)),
    first: median(results.map((x) => x.first)),
    warm: median(results.map((x) => x.warm)),
    bytes: median(results.map((x) => x.bytes)),
  };
  const mark = (ok: boolean) => (ok ? 'ok' : 'over target');
  const mb = (n: number) => (n / 1e6).toFixed(1).padStart(6);
  console.log(`\nhandler ${handler}, median of ${runs} cold loads`);
  console.log(`time to interactive editor   ${String(m.editor).padStart(6)} ms   target < 2000 ms   ${mark(m.editor < 2000)}`);
  console.log(`time to first verdict (cold) ${String(m.first).padStart(6)} ms   target < 5000 ms   ${mark(m.first < 5000)}`);
  console.log(`warm re-verify               ${String(m.warm).padStart(6)} ms   target < 1000 ms   ${mark(m.warm < 1000)}`);
  console.log(`transferred on first load    ${mb(m.bytes)} MB   uncompressed (vite preview)`);
  for (const [enc, x] of Object.entries(compressed)) {
    console.log(`transferred on first load    ${mb(x.bytes)} MB   from a ${enc} host      target <= 12 MB   ${mark(x.bytes <= 12e6)}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
