/**
 * The platform in a real Chromium against the built site: cross-origin
 * isolation, Z3 in the worker answering a real query, cancellation by
 * terminating the worker, every page rendering, and offline use.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from './driver.ts';
import { ensureBuilt, newPage, screenshot, serveStatic, waitForEditor } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();

describe('platform', () => {
  it('loads cross-origin isolated and starts Z3 in a worker', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url);
    expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
    expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe('function');
    await page.waitForSelector('[data-testid="engine-status"][data-kind="ready"]');
    await waitForEditor(page);
    expect(await page.locator('[data-testid="isolation-problem"]').count()).toBe(0);
    await screenshot(page, 'playground');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends the isolation headers on a 304 too (WebKitGTK refuses a worker script revalidated without them)', async () => {
    const page = await (await fetch(env.site.url)).text();
    // The page's script; the verifier worker's is served the same way.
    const script = /assets\/index-[\w-]+\.js/.exec(page);
    expect(script, 'the script index.html loads').not.toBeNull();
    const url = new URL(script![0], env.site.url).href;
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    expect(etag, 'the asset is revalidated by its ETag').toBeTruthy();
    const again = await fetch(url, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    for (const res of [first, again]) {
      expect(res.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
  });

  it("imports nothing from the verifier worker's main chunk (WebKit would run it twice in one worker)", async () => {
    // WebKit keeps no worker's main module in the module map: a chunk importing the main script's URL ran it
    // again, so every call was answered twice and the wasm downloaded twice (src/worker/verifier.worker.ts).
    const assets = join(await ensureBuilt(), 'assets');
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const main = scripts.filter((f) => /^verifier\.worker-[\w-]+\.js$/.test(f));
    expect(main, 'one verifier worker chunk').toHaveLength(1);
    const importsMain = scripts.filter((f) => new RegExp(`(from|import)\\s*\\(?\\s*["'\x60]\\./${main[0].replace(/[.-]/g, '\\$&')}["'\x60]`).test(readFileSync(join(assets, f), 'utf8')));
    expect(importsMain).toEqual([]);
    const source = readFileSync(join(assets, main[0]), 'utf8');
    expect(source, 'the main chunk exports nothing for others to import').not.toMatch(/\bexport\s*\{/);
    // It does not start Z3's download itself: the page's init does, once the page's code is in (docs/app.md, "Loading Z3").
    expect(source).not.toMatch(/["'\x60]\.\.?\/(?:z3\/)?start-[\w-]+\.js["'\x60]/);
    // The worker's own code is one chunk, fetched at once: a dynamic import of a module sharing code with it made the
    // bundler move that code to chunks fetched only after it, a round trip later (docs/design.md, "The worker's first code").
    const core = scripts.filter((f) => /^verifier-core-[\w-]+\.js$/.test(f));
    expect(core, 'one verifier core chunk').toHaveLength(1);
    expect(readFileSync(join(assets, core[0]), 'utf8'), 'the core chunk imports no other chunk statically').not.toMatch(/\b(?:from|import)\s*["'\x60]\.\//);
  });

  it('answers a real Z3 query from the worker (self-test)', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/about');
    await page.click('[data-testid="self-test"]');
    const result = page.locator('[data-testid="self-test-result"]');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    const text = await result.textContent();
    expect(text).toContain('validity unsat');
    expect(text).toContain('satisfiable sat');
    // 391 = 17 * 23, and the model's x must be one of the factors.
    expect(text).toMatch(/x = (17|23)\b/);
    await screenshot(page, 'about');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('cancels a long query by terminating the worker, and the next query still works', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/about');
    await page.waitForSelector('[data-testid="engine-status"][data-kind="ready"]');
    const respawns = async () => Number(await page.locator('[data-testid="engine-status"]').getAttribute('data-respawns'));
    const before = await respawns();
    // The query (minutes of Z3) is on the loaded worker as soon as it starts;
    // only terminating that worker stops it. Cancelled at once is a state: the
    // page says cancelled and the worker was replaced, long before the query
    // could have ended.
    await page.click('[data-testid="stress"]');
    await page.waitForSelector('[data-testid="stress-state"][data-state="running"]');
    await page.click('[data-testid="stress-cancel"]');
    await page.waitForSelector('[data-testid="stress-state"][data-state="cancelled"]');
    expect(await respawns()).toBe(before + 1);
    // The replacement worker answers.
    await page.click('[data-testid="self-test"]');
    const result = page.locator('[data-testid="self-test-result"]');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    await context.close();
  });

  it('renders every page at 1280x800 in light and dark themes', async () => {
    const { page, context, errors } = await newPage(env.browser);
    for (const [route, heading] of [
      ['tasks', 'Tasks'],
      ['learn', 'Learn'],
      ['evaluate', 'Evaluate'],
      ['runs', 'Runs'],
    ] as const) {
      await page.goto(`${env.site.url}#/${route}`);
      await expect.poll(() => page.locator('h1').first().textContent()).toContain(heading);
      await screenshot(page, route);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(env.site.url + '#/play');
    await waitForEditor(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).not.toBe('rgb(247, 248, 250)');
    await screenshot(page, 'playground-dark');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is keyboard accessible: the skip link and the navigation are reachable with Tab', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/about');
    await page.locator('h1', { hasText: 'About' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Playground');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/play');
    await context.close();
  });

  it('works offline after the first visit (service worker cache)', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/about');
    await page.waitForSelector('[data-testid="engine-status"][data-kind="ready"]');
    // The service worker registers once Z3 has loaded and the page is idle, then precaches the shell and Z3.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const reg = await navigator.serviceWorker.getRegistration();
            if (reg?.active?.state !== 'activated' || !navigator.serviceWorker.controller) return false;
            const cache = await caches.open('osvlab-v4');
            // The one wasm, which serves every memory size (src/z3/memory.ts), and no other.
            const wasms = (await cache.keys()).filter((r) => r.url.endsWith('.wasm')).map((r) => new URL(r.url).pathname.split('/').pop());
            return Boolean(await cache.match('./')) && wasms.length === 1 && wasms[0] === 'z3-built.wasm';
          }),
        { interval: 500 },
      )
      .toBe(true);
    await context.setOffline(true);
    await page.reload();
    await page.click('[data-testid="self-test"]');
    const result = page.locator('[data-testid="self-test-result"]');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
    await context.close();
  });

  it('a service worker that takes longer to install than the page waits for a registration still isolates the page', async () => {
    // The worker's install fetches sw-manifest.json first (public/sw.js): held back here for longer
    // than the page's bound on a pending registration (8 s, src/app/lib/cross-origin.ts), as a slow
    // network or a busy phone would. The page used to give up at that bound and stay without isolation.
    let asked = false;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const host = await serveStatic(await ensureBuilt(), {
      hold: async (path) => {
        if (!path.endsWith('sw-manifest.json')) return;
        asked = true;
        await held;
      },
    });
    try {
      const { page, context } = await newPage(env.browser);
      await page.goto(host.url + '#/about');
      await waitUntil('the service worker to ask for its manifest', () => asked);
      await new Promise((r) => setTimeout(r, 10_000));
      expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(false);
      release();
      await expect.poll(() => page.evaluate(() => window.crossOriginIsolated)).toBe(true);
      await page.waitForSelector('[data-testid="engine-status"][data-kind="ready"]');
      await context.close();
    } finally {
      release();
      await host.close();
    }
  });

  it('on a static host without isolation headers, the service worker isolates the page after one reload', async () => {
    const host = await serveStatic(await ensureBuilt());
    try {
      const { page, context } = await newPage(env.browser);
      await page.goto(host.url + '#/about');
      await expect.poll(() => page.evaluate(() => window.crossOriginIsolated)).toBe(true);
      await page.waitForSelector('[data-testid="engine-status"][data-kind="ready"]');
      await page.click('[data-testid="self-test"]');
      const result = page.locator('[data-testid="self-test-result"]');
      await result.waitFor();
      expect(await result.getAttribute('data-ok')).toBe('true');
      await context.close();

      // Without service workers nothing can add the headers: the app says so plainly, and other pages still work.
      const blocked = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
      const p2 = await blocked.newPage();
      await p2.goto(host.url + '#/learn');
      const notice = p2.locator('[data-testid="isolation-problem"]');
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/not available|isolat/i);
      await p2.locator('[data-testid^="lesson-link-"]').first().waitFor();
      await screenshot(p2, 'no-isolation');
      await blocked.close();
    } finally {
      await host.close();
    }
  }, 240_000);
});
