/**
 * A verifier worker whose start fails on the network (docs/app.md, "When Z3
 * cannot run"), in a real Chromium against the built site: the first request
 * for the worker's script, or for Z3's glue, fails, and the pool starts the
 * worker again, so Z3 loads and Z3 answers with no failure shown; when
 * every request for the glue fails, the page says what failed, where, and
 * what to do, instead of loading forever. A verification that takes no
 * query does not wait for Z3's wasm at all (docs/app.md, "Loading Z3").
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { useSite } from './setup.ts';
import { shareFragment } from './share-link.ts';

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
  it("requests Z3's wasm only once its own code is in, and only once (the lint worker loads none)", async () => {
    // Nothing competes with the bytes a verdict that needs no query waits for: the worker's own code
    // (its core) is fetched first and Z3's 5 MB wasm after it (src/worker/verifier.worker.ts).
    const { context, page } = await freshPage();
    const seen = { wasm: 0, coreServed: false, wasmAfterCore: false };
    await page.route(/\/z3-built[\w-]*\.wasm$/, async (route: Route) => {
      seen.wasm++;
      if (seen.wasm === 1) seen.wasmAfterCore = seen.coreServed;
      await route.continue();
    });
    // The core is held for 2 s: a worker that asks for the wasm before its code has arrived asks during the hold.
    await page.route(/\/assets\/verifier-core[\w.-]*\.js$/, async (route: Route) => {
      await new Promise((r) => setTimeout(r, 2_000));
      seen.coreServed = true;
      await route.continue();
    });
    await page.goto(env.site.url + '#/');
    expect(await loaded(page)).toBe('ready');
    expect(seen.wasmAfterCore, "the wasm was asked for only after the worker's own code was served").toBe(true);
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

/** Holds every request for Z3's wasm until `release()`. */
async function holdWasm(page: Page): Promise<{ release(): void; seen(): number }> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let seen = 0;
  await page.route(/\/z3-built[\w-]*\.wasm$/, async (route: Route) => {
    seen++;
    await held;
    await route.continue();
  });
  return { release, seen: () => seen };
}

describe('a verification that takes no query', () => {
  it("shows its verdict while Z3's wasm is held back, a refutation found by running too; one that needs Z3 gets it once the wasm arrives", async () => {
    const oracle = oracleSpec('sys_set_runnable')!;
    const { context, page } = await freshPage();
    const wasm = await holdWasm(page);
    await page.goto(env.site.url + shareFragment({ handler: 'sys_set_runnable', spec: oracle }));
    const verdict = page.locator('[data-testid="shared-verdict"]');
    await verdict.waitFor({ timeout: 120_000 });
    expect(await verdict.getAttribute('data-status')).toBe('verified');
    expect(wasm.seen(), 'the wasm was asked for').toBe(1);
    expect(await page.getAttribute('[data-testid="engine-status"]', 'data-kind')).toBe('loading');
    wasm.release();
    expect(await loaded(page)).toBe('ready');

    // Returning success without making the process runnable: a reachable state refutes it, with the wasm still held back.
    const wrong = oracle.replace(/\n(\s*)(new\.procs\[pid\]\.state = .*)\n/, '\n$1pass\n');
    expect(wrong).not.toBe(oracle);
    const ran = await context.newPage();
    const heldToo = await holdWasm(ran);
    await ran.goto(env.site.url + shareFragment({ handler: 'sys_set_runnable', spec: wrong }));
    const byRun = ran.locator('[data-testid="shared-verdict"]');
    await byRun.waitFor({ timeout: 120_000 });
    expect(await byRun.getAttribute('data-status')).toBe('refuted');
    expect(await ran.locator('[data-testid="shared-found-by"]').count()).toBe(1);
    expect(await ran.getAttribute('[data-testid="found-by"]', 'data-found-by')).toBe('run');
    expect(await ran.getAttribute('[data-testid="engine-status"]', 'data-kind')).toBe('loading');
    heldToo.release();

    // Letting pid 63 be started by anyone: no state of the bank has such a pid, so it takes Z3's model.
    const hard = oracle.replace('old.procs[pid].ppid == old.current,', 'z3.Or(old.procs[pid].ppid == old.current, pid == 63),');
    expect(hard).not.toBe(oracle);
    const second = await context.newPage();
    const held = await holdWasm(second);
    await second.goto(env.site.url + shareFragment({ handler: 'sys_set_runnable', spec: hard }));
    await second.waitForFunction(() => document.querySelector('[data-testid="engine-status"]')?.getAttribute('data-kind') === 'loading', undefined, { timeout: 60_000 });
    await expect.poll(() => held.seen(), { timeout: 60_000 }).toBe(1);
    // Time for the worker's code to arrive and try without Z3 (under a second here): no verdict until the wasm comes.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await second.locator('[data-testid="shared-verdict"]').count()).toBe(0);
    held.release();
    const refuted = second.locator('[data-testid="shared-verdict"]');
    await refuted.waitFor({ timeout: 120_000 });
    expect(await refuted.getAttribute('data-status')).toBe('refuted');
    expect(await second.getAttribute('[data-testid="found-by"]', 'data-found-by')).toBe('solver');
    expect(await second.getAttribute('[data-testid="engine-status"]', 'data-kind')).toBe('ready');
    await context.close();
  }, 240_000);
});
