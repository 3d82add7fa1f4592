/**
 * A verifier worker whose start fails on the network (docs/app.md, "When Z3
 * cannot run"), in a real Chromium against the built site: the first request
 * for the worker's script, or for Z3's glue, fails, and the pool starts the
 * worker again, so Z3 loads and Z3 answers with no failure shown; when
 * every request for the glue fails, the page says what failed, where, and
 * what to do, instead of loading forever.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSite } from './setup.ts';

const env = useSite();

/** A page whose service worker is kept out, so every request the workers make passes the routes. */
async function freshPage() {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  return { context, page };
}

/** Fails the first `failures` requests matching `url` as a dropped connection would; counts them all. */
async function failFirst(page: Page, url: RegExp, failures: number): Promise<{ seen: number }> {
  const count = { seen: 0 };
  await page.route(url, async (route: Route) => {
    count.seen++;
    if (count.seen <= failures) await route.abort('connectionreset');
    else await route.continue();
  });
  return count;
}

/** Waits for Z3 to load or fail, and says which (with the page's message when it failed). */
async function loaded(page: Page): Promise<string> {
  const status = page.locator('[data-testid="engine-status"][data-kind="ready"], [data-testid="engine-status"][data-kind="failed"]');
  await status.waitFor({ timeout: 120_000 });
  const kind = (await status.getAttribute('data-kind')) ?? '';
  return kind === 'failed' ? `failed: ${await page.locator('[data-testid="z3-failed"]').textContent()}` : kind;
}

/** About's self-test: a real Z3 query in the loaded worker. */
async function selfTest(page: Page): Promise<string | null> {
  await page.click('[data-testid="self-test"]');
  const result = page.locator('[data-testid="self-test-result"]');
  await result.waitFor({ timeout: 120_000 });
  return result.getAttribute('data-ok');
}

describe("the verifier worker's start", () => {
  it("requests Z3's wasm before the rest of its own code has arrived, and only once (the lint worker loads none)", async () => {
    const { context, page } = await freshPage();
    const seen = { wasm: 0, wasmBeforeCore: false };
    await page.route(/\/z3-built[\w-]*\.wasm$/, async (route: Route) => {
      seen.wasm++;
      await route.continue();
    });
    // The worker's code after its entry (the core and z3-solver's API) is held until the wasm is asked for, or 30 s:
    // a worker that asks for the wasm only once that code has run does not ask in time.
    await page.route(/\/assets\/verifier-core[\w.-]*\.js$/, async (route: Route) => {
      const until = Date.now() + 30_000;
      while (seen.wasm === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      if (seen.wasm > 0) seen.wasmBeforeCore = true;
      await route.continue();
    });
    await page.goto(env.site.url + '#/');
    expect(await loaded(page)).toBe('ready');
    expect(seen.wasmBeforeCore, "the wasm was asked for before the worker's code was all here").toBe(true);
    expect(seen.wasm, 'one wasm request: the verifier worker, not the lint worker too').toBe(1);
    await context.close();
  }, 240_000);
});

describe('a verifier worker that does not load at first', () => {
  it("is started again when its script's first request fails, and Z3 answers", async () => {
    const { context, page } = await freshPage();
    const script = await failFirst(page, /\/assets\/verifier\.worker-[\w-]+\.js$/, 1);
    await page.goto(env.site.url + '#/about');
    expect(await loaded(page)).toBe('ready');
    expect(script.seen, 'the script was asked for again after the failure').toBeGreaterThanOrEqual(2);
    expect(await selfTest(page)).toBe('true');
    expect(await page.locator('[data-testid="z3-failed"]').count()).toBe(0);
    await context.close();
  }, 240_000);

  it("is started again when Z3's glue fails twice, and Z3 answers", async () => {
    const { context, page } = await freshPage();
    const glue = await failFirst(page, /\/z3-built\.js$/, 2);
    await page.goto(env.site.url + '#/about');
    expect(await loaded(page)).toBe('ready');
    expect(glue.seen).toBe(3);
    expect(await selfTest(page)).toBe('true');
    expect(await page.locator('[data-testid="z3-failed"]').count()).toBe(0);
    await context.close();
  }, 240_000);

  it('says what failed, where and what to do when every try fails', async () => {
    const { context, page } = await freshPage();
    const glue = await failFirst(page, /\/z3-built\.js$/, Infinity);
    await page.goto(env.site.url + '#/about');
    const failed = page.locator('[data-testid="z3-failed"]');
    await failed.waitFor({ timeout: 120_000 });
    const text = (await failed.textContent()) ?? '';
    // The error's own message, the file it was fetching, how many starts failed, and what to do.
    expect(text).toMatch(/Could not fetch the Z3 glue from http:\/\/[^ ]+\/z3-built\.js: \S/);
    expect(text).toContain('(3 starts failed)');
    expect(text).toContain('Check the network connection and reload the page');
    expect(glue.seen).toBe(3);
    expect(await page.getAttribute('[data-testid="engine-status"]', 'data-kind')).toBe('failed');
    await context.close();
  }, 240_000);
});
