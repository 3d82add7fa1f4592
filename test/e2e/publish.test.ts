/**
 * A published site as its readers use it (docs/publish.md). Two runs are
 * made with `osvlab run` against the local fake provider, published once
 * with the real build under a sub-path (--base), and served by a plain
 * static server that sends no isolation headers (the service worker adds
 * them). In Chromium the Results page shows both rows and Re-verify all
 * reproduces every cell; Cancel stops a re-verification; the site works
 * offline after one visit. A second copy has one answer of run A edited
 * (flagged altered, its cells changed) and one stored grade of run B edited
 * (exactly that cell changed); the page and `osvlab publish --check` name
 * the same. The same published site in Firefox: every cell reproduced; in
 * WebKitGTK, on a phone's width, the edited copy's table with the altered
 * answer flagged (re-verifying there is left out, as in test/e2e/smoke.ts:
 * WebKitGTK's Z3 runs in one thread, too slow for CI's time). Where service
 * workers are blocked (no isolation, so no Z3) the table is there and the
 * page says why nothing can be re-verified. Every wait is on the page's state.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptId } from '../../src/core/eval/run/run-types.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { type CliResult, startCli } from '../cli-process.ts';
import { oracleAnswer, proseAnswer, roundOf, taskOf } from '../eval/run/cli.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { violations } from './axe.ts';
import { launchEngine } from './driver.ts';
import { sticksOut } from './fit.ts';
import { ARTIFACTS, ensureBuilt, launch, screenshot, serveStatic } from './harness.ts';

const ROOT = join(ARTIFACTS, `publish-${process.pid}`);
/** The pristine site, published with --base under this path. */
const SUB = '/papers/osv/';
/** The copy whose files were edited after publishing. */
const EDITED = '/edited/';
const TIMEOUT = 240_000;

let fake: FakeProvider;
let host: { url: string; close(): Promise<void> };
let browser: Awaited<ReturnType<typeof launch>>;
let runA: string;
let runB: string;
/** The edited answer (run A) and the edited grade (run B). */
let alteredAnswer: string;
let editedGrade: string;

const cli = (args: string[]): Promise<CliResult> => startCli(args, { ...process.env, OSVLAB_API_KEY: 'sk-local-test' }).result;

/** Makes a run with the fake provider and returns its id. */
async function makeRun(dir: string, args: string[]): Promise<string> {
  const r = await cli(['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--out', dir, ...args]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).id;
}

/** Rewrites run file `path` of site `dir` with `edit`, keeping it a valid run file. */
function editRunFile(dir: string, id: string, edit: (file: any) => void): void {
  const path = join(dir, 'published', 'runs', `${id}.json`);
  const file = JSON.parse(readFileSync(path, 'utf8'));
  edit(file);
  writeFileSync(path, JSON.stringify(file));
}

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
  const tasks: readonly Task[] = await loadTasks();
  fake = await startFakeProvider();
  // fake-a: the oracle, but prose for sys_close; fake-b: prose first for sys_kill, the oracle in its repair round.
  fake.respond((req) => {
    const task = taskOf(req.prompt, tasks);
    const prose = req.model === 'fake-a' ? task.id === 'sys_close-v0' : task.id === 'sys_kill-v0' && roundOf(req.prompt) === 0;
    return { kind: 'text', text: prose ? proseAnswer() : oracleAnswer(task.handler) };
  });
  const [a, b, build] = await Promise.all([
    makeRun(join(ROOT, 'run-a'), ['--model', 'fake-a', '--name', 'baseline A', '--tasks', 'sys_dup-v0,sys_kill-v0,sys_close-v0', '--shots', '0']),
    // A name that spoofs with bidi controls (issue 57 item 8): the page shows the controls and isolates the name.
    makeRun(join(ROOT, 'run-b'), ['--model', 'fake-b', '--name', SPOOF, '--tasks', 'sys_dup-v0,sys_kill-v0', '--n', '3', '--repair', '1', '--shots', '1', '--prompt', 'guide', '--no-lemmas']),
    ensureBuilt(),
  ]);
  [runA, runB] = [a, b];
  const site = join(ROOT, 'site');
  const runs = [join(ROOT, 'run-a'), join(ROOT, 'run-b')];
  const [pristine, plain] = await Promise.all([
    cli(['publish', ...runs, '--out', join(site, SUB), '--title', 'Two fake models', '--base', SUB, '--app', build]),
    cli(['publish', ...runs, '--out', join(site, EDITED), '--title', 'Two fake models, edited', '--app', build]),
  ]);
  expect(pristine.code, pristine.err).toBe(0);
  expect(plain.code, plain.err).toBe(0);

  // Run A: its passing answer to sys_dup becomes prose. Run B: a stored syntax grade becomes semantic.
  alteredAnswer = attemptId(runA, 'sys_dup-v0', 0, 0);
  editedGrade = attemptId(runB, 'sys_kill-v0', 1, 0);
  editRunFile(join(site, EDITED), runA, (f) => {
    const at = f.attempts.find((x: any) => x.id === alteredAnswer);
    expect(at.grade.category).toBe('pass');
    at.response.text = proseAnswer();
  });
  editRunFile(join(site, EDITED), runB, (f) => {
    const at = f.attempts.find((x: any) => x.id === editedGrade);
    expect(at.grade.category).toBe('syntax');
    at.grade.category = 'semantic';
  });
  host = await serveStatic(site);
  browser = await launch();
}, TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await fake?.close();
});

/** Opens a site path in a fresh context of `width` px; the first visit reloads once under the service worker. */
async function open(path: string, width = 1400, hash = ''): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${host.url.replace(/\/$/, '')}${path}${hash}`);
  await expect.poll(() => page.evaluate(() => window.crossOriginIsolated)).toBe(true);
  await page.waitForSelector('[data-testid="results-page"][data-loading="ready"]');
  return { page, errors, close: () => context.close() };
}

/** Clicks Re-verify all and waits until no row is queued or running. */
async function reverifyAll(page: Page): Promise<number> {
  const t0 = Date.now();
  await page.click('[data-testid="reverify-all"]');
  await page.waitForSelector('[data-testid="results-summary"]', { timeout: 120_000 });
  await page.waitForSelector('[data-testid="reverify-cancel"]', { state: 'detached', timeout: 120_000 });
  return Date.now() - t0;
}

/** Each figure cell of the table: [run, cell, verdict]. */
function cells(page: Page): Promise<string[][]> {
  return page.$$eval('[data-testid="result-row"]', (rows) =>
    rows.flatMap((r) => [...r.querySelectorAll('[data-testid="result-cell"]')].map((c) => [r.getAttribute('data-run')!, c.getAttribute('data-cell')!, c.getAttribute('data-verdict')!])),
  );
}

const SPOOF = 'fake-b\u202E\u2066 (verified by OpenAI)\u2069';

const rowOrder = (page: Page) => page.$$eval('[data-testid="result-row"]', (rows) => rows.map((r) => r.getAttribute('data-run')));

describe('a published site', () => {
  it("weighs under 40 MB on disk, with one Z3 wasm for every memory size (docs/app.md, \"Z3's memory\")", () => {
    const dir = join(ROOT, 'site', SUB);
    const files = (readdirSync(dir, { recursive: true }) as string[]).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
    expect(files.filter((f) => f.endsWith('.wasm')).map((f) => f.slice(dir.length))).toEqual(['z3-built.wasm']);
    // 129.5 MB with a wasm per size; 37 MB with one (26.6 MB of it the wasm, without the linker's padding).
    expect(files.reduce((n, f) => n + statSync(f).size, 0)).toBeLessThan(40e6);
  });

  it('under a sub-path without isolation headers: both rows, Cancel, then every cell reproduced; sortable, linkable, comparable', async () => {
    const { page, errors, close } = await open(SUB);
    expect(await page.title()).toBe('Two fake models');
    expect(await page.locator('h1').textContent()).toBe('Two fake models');
    expect(await page.evaluate(() => location.hash)).toBe('');
    expect(await rowOrder(page)).toEqual([runA, runB]);
    const rowA = page.locator(`[data-testid="result-row"][data-run="${runA}"]`);
    expect(await rowA.locator('[data-label="Prompt"]').textContent()).toBe('standard');
    expect(await page.locator(`[data-testid="result-row"][data-run="${runB}"] [data-label="Prompt"]`).textContent()).toBe('guide');
    // Run A: 2 of 3 first answers pass; run B: pass@1 1/2 (sys_dup 3 of 3, sys_kill 0 of 3), pass@3 1/2, all pass after a repair.
    expect(await rowA.locator('[data-cell="pass1"] .fig').textContent()).toBe('66.7%');
    expect(await rowA.locator('[data-cell="split"] .fig').textContent()).toBe('pass 2, syntax 1');
    const rowB = page.locator(`[data-testid="result-row"][data-run="${runB}"]`);
    expect(await rowB.locator('[data-cell="passk"] .fig').textContent()).toBe('50.0% (k=3)');
    expect(await rowB.locator('[data-cell="repair"] .fig').textContent()).toBe('100.0%');
    expect(await page.locator('[data-testid="altered-flag"]').count()).toBe(0);
    expect(await page.locator('[data-testid="not-reverified"]').count()).toBe(2);
    // Issue 55 item 2: a row is named by its --name, with its model, n, tasks, provider and host.
    expect(await rowA.locator('[data-testid="row-link"]').textContent()).toBe('baseline A');
    expect(await rowA.locator('[data-testid="row-model"]').textContent()).toBe('model fake-a');
    expect([await rowA.locator('[data-testid="row-n"]').textContent(), await rowB.locator('[data-testid="row-n"]').textContent()]).toEqual(['1', '3']);
    expect((await rowA.locator('[data-testid="row-tasks"]').textContent())!.replace(/\s+/g, ' ')).toBe('3 sys_dup-v0, sys_kill-v0, sys_close-v0');
    expect((await rowA.locator('[data-testid="row-provider"]').textContent())!.replace(/\s+/g, ' ')).toBe(`openai-compatible ${new URL(fake.url).host}`);
    // Issue 57 item 8: the spoofing name shows its controls, isolated.
    expect(await rowB.locator('[data-testid="row-link"]').textContent()).toBe('fake-b⟦U+202E⟧⟦U+2066⟧ (verified by OpenAI)⟦U+2069⟧');
    expect(await rowB.locator('[data-testid="row-link"] > bdi').count()).toBe(1);
    expect(await page.locator('[data-testid="results-table"]').textContent()).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    // Three tasks: the Wilson interval (a bootstrap of 2 of 3 tasks is [0%, 100%]), marked, with the task count.
    expect(await rowA.locator('[data-cell="pass1"] [data-testid="cell-interval"]').textContent()).toBe('[20.8%, 93.9%] Wilson');
    expect(await rowA.locator('[data-cell="pass1"] [data-testid="few-tasks"]').textContent()).toBe('⚠ only 3 tasks');
    // Every column defined; the trust note names the independent check.
    const terms = await page.locator('[data-testid="results-legend"] dt').allTextContents();
    for (const t of ['Run', 'n', 'Tasks', 'Provider', 'First answers', 'Lemma passes', 'The interval']) expect(terms).toContain(t);
    expect(await page.locator('[data-testid="results-legend"]').textContent()).toContain('Wilson score interval');
    expect(await page.locator('[data-testid="results-trust"]').textContent()).toMatch(/runs the verifier the publisher shipped.*osvlab publish --check/s);
    await screenshot(page, 'results-1400');

    // Cancel while run B waits behind run A: B never starts, nothing is marked reproduced.
    await page.click('[data-testid="reverify-all"]');
    await page.waitForSelector(`[data-testid="result-row"][data-run="${runB}"][data-status="queued"]`);
    await page.click('[data-testid="reverify-cancel"]');
    await page.waitForSelector('[data-testid="reverify-cancel"]', { state: 'detached' });
    expect(await rowB.getAttribute('data-status')).toBe('cancelled');
    expect(await page.locator('[data-testid="result-cell"][data-verdict="reproduced"]').count()).toBe(await page.locator(`[data-testid="result-row"][data-run="${runA}"][data-status="reproduced"] [data-testid="result-cell"]`).count());

    const ms = await reverifyAll(page);
    console.log(`re-verify all (${runA}: 3 answers, ${runB}: 9 answers) in the page: ${ms} ms`);
    const all = await cells(page);
    expect(all.map(([run, cell]) => `${run === runA ? 'A' : 'B'}:${cell}`)).toEqual(['A:pass1', 'A:split', 'A:strict', 'B:pass1', 'B:passk', 'B:split', 'B:repair']);
    expect(all.filter(([, , v]) => v !== 'reproduced')).toEqual([]);
    expect(await page.textContent('[data-testid="results-summary"]')).toContain('All 7 cells reproduced in 2 of 2 runs');
    expect(await page.getAttribute(`[data-testid="result-row"][data-run="${runA}"]`, 'data-status')).toBe('reproduced');

    // Sorted by pass@1, best first, then the other way.
    await page.click('th >> text=pass@1');
    expect(await rowOrder(page)).toEqual([runA, runB]);
    await page.click('th >> text=pass@1');
    expect(await rowOrder(page)).toEqual([runB, runA]);

    // A cell's link: its address, the cell marked, its verdict in the detail.
    await rowB.locator('[data-cell="passk"] a.fig').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/results/${runB}/passk`);
    await page.waitForSelector('[data-testid="cell-detail"][data-cell="passk"].current[data-verdict="reproduced"]');
    // A reproduced figure shows the answers behind it: run B's 2 tasks × 3 first answers, pass or fail.
    const behind = await page.$$eval('[data-testid="answers-behind"][data-cell="passk"] [data-testid="answer-behind"]', (els) => els.map((e) => e.getAttribute('data-reads')));
    expect(behind).toEqual(['pass', 'pass', 'pass', 'fail', 'fail', 'fail']);
    expect(await rowB.locator('[data-cell="passk"]').getAttribute('class')).toContain('current');
    expect(await page.getAttribute('[data-testid="download-run"]', 'href')).toBe(`published/runs/${runB}.json`);
    expect(await page.getAttribute('[data-testid="file-digest"]', 'data-matches')).toBe('true');
    // The row's two downloads, fetched as the browser would: the run file is the one the manifest hashed.
    const got = await page.evaluate(async () => {
      const href = (id: string) => (document.querySelector(`[data-testid="${id}"]`) as HTMLAnchorElement).href;
      const manifest = await (await fetch(href('download-manifest-row'))).json();
      const bytes = await (await fetch(href('download-run'))).arrayBuffer();
      const hex = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
      return { format: manifest.format, hex, bytes: bytes.byteLength };
    });
    const manifest = JSON.parse(readFileSync(join(ROOT, 'site', SUB, 'published', 'manifest.json'), 'utf8'));
    expect(got).toEqual({ format: 'osvlab-manifest', hex: manifest.files[`published/runs/${runB}.json`].sha256, bytes: manifest.files[`published/runs/${runB}.json`].bytes });

    // Two ticks: the paired comparison.
    await page.locator('[data-testid="pair"]').nth(0).check();
    await page.locator('[data-testid="pair"]').nth(1).check();
    await page.waitForSelector('[data-testid="compare-view"]');
    expect(await page.textContent('[data-testid="compare-pairs"]')).toContain('2 tasks both runs answered');
    await screenshot(page, 'results-reverified-1400');
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();

    // A phone: every row a card that fits; a row's link opens its detail.
    const phone = await open(SUB, 390, `#/results/${runA}`);
    await phone.page.waitForSelector(`[data-testid="result-detail"][data-run="${runA}"]`);
    expect(await sticksOut(phone.page)).toEqual([]);
    await screenshot(phone.page, 'results-390');
    // The cards sort by their own list (the column headers are hidden at this width).
    await phone.page.selectOption('[data-testid="sort-select"]', 'pass1');
    expect(await rowOrder(phone.page)).toEqual([runA, runB]);
    await phone.page.click('[data-testid="sort-reverse"]');
    expect(await rowOrder(phone.page)).toEqual([runB, runA]);
    await phone.close();

    // Issue 57 item 9: the page reads no stored API key, and shows none.
    const KEY = 'sk-stored-on-this-device-0123456789';
    const keyed = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await keyed.addInitScript((key) => {
      localStorage.setItem('osvlab.key.openai', JSON.stringify({ 'https://api.openai.com': key }));
      const read: string[] = [];
      (window as unknown as { storageReads: string[] }).storageReads = read;
      const get = Storage.prototype.getItem;
      Storage.prototype.getItem = function (this: Storage, name: string) {
        read.push(name);
        return get.call(this, name);
      };
    }, KEY);
    const kp = await keyed.newPage();
    await kp.goto(`${host.url.replace(/\/$/, '')}${SUB}`);
    await kp.waitForSelector('[data-testid="results-page"][data-loading="ready"]');
    expect((await kp.evaluate(() => (window as unknown as { storageReads: string[] }).storageReads)).filter((n) => n.startsWith('osvlab.key'))).toEqual([]);
    expect(await kp.content()).not.toContain(KEY);
    await keyed.close();
  }, TIMEOUT);

  it('where Z3 cannot run (no service worker, so no isolation): the table and the altered flag, the reason, Re-verify off', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(`${host.url.replace(/\/$/, '')}${EDITED}`);
    await page.waitForSelector('[data-testid="results-page"][data-loading="ready"]', { timeout: 60_000 });
    expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(false);
    expect(await rowOrder(page)).toEqual([runA, runB]);
    expect(await page.textContent(`[data-testid="result-row"][data-run="${runA}"] [data-testid="altered-flag"]`)).toBe('⚠ 1 altered');
    await page.waitForSelector('[data-testid="reverify-blocked"]');
    expect(await page.textContent('[data-testid="isolation-problem"]')).toMatch(/the service worker that adds them could not take over this page/);
    expect(await page.locator('[data-testid="reverify-all"]').isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="reverify-row"]').evaluateAll((bs) => bs.map((b) => (b as HTMLButtonElement).disabled))).toEqual([true, true]);
    // No cell is given a verdict: without Z3 every answer would grade `internal`.
    expect(await page.locator('[data-testid="result-cell"]').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-verdict')))).toEqual(Array(7).fill(''));
    await context.close();
  }, TIMEOUT);

  it('works offline after one visit: the table, and each row re-verified', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${host.url.replace(/\/$/, '')}${SUB}`);
    await page.waitForSelector('[data-testid="results-page"][data-loading="ready"]');
    // The service worker precaches the app, Z3 and the published files (sw-manifest.json).
    await expect
      .poll(
        () =>
          page.evaluate(async (files) => {
            if (!navigator.serviceWorker.controller) return false;
            const cache = await caches.open('osvlab-v4');
            for (const f of files) if (!(await cache.match(f))) return false;
            return true;
          }, ['./', 'z3-built.wasm', 'published/index.json', 'published/manifest.json', `published/runs/${runA}.json`, `published/runs/${runB}.json`]),
        { interval: 500 },
      )
      .toBe(true);
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('[data-testid="results-page"][data-loading="ready"]');
    expect(await rowOrder(page)).toEqual([runA, runB]);
    // Each row's own Re-verify, one after the other.
    for (const id of [runA, runB]) {
      await page.click(`[data-testid="result-row"][data-run="${id}"] [data-testid="reverify-row"]`);
      await page.waitForSelector(`[data-testid="result-row"][data-run="${id}"][data-status="reproduced"]`, { timeout: 120_000 });
    }
    expect((await cells(page)).filter(([, , v]) => v !== 'reproduced')).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('an edited answer is flagged altered and its cells changed; an edited grade changes exactly its cell', async () => {
    const { page, errors, close } = await open(EDITED);
    // Flagged on load, before anything is graded.
    expect(await page.textContent(`[data-testid="result-row"][data-run="${runA}"] [data-testid="altered-flag"]`)).toBe('⚠ 1 altered');
    expect(await page.locator('[data-testid="altered-flag"]').count()).toBe(1);
    await reverifyAll(page);
    const changed = (await cells(page)).filter(([, , v]) => v === 'changed').map(([run, cell]) => `${run === runA ? 'A' : 'B'}:${cell}`);
    // The answer passed and is now prose: run A's pass@1, split and strict; the grade: run B's split alone.
    expect(changed).toEqual(['A:pass1', 'A:split', 'A:strict', 'B:split']);
    // A changed cell shows what this verifier derived; the published figure only struck through beside it.
    const cellA = (id: string) => page.locator(`[data-testid="result-row"][data-run="${runA}"] [data-cell="${id}"]`);
    expect(await cellA('pass1').locator('.fig').textContent()).toBe('33.3%');
    expect(await cellA('pass1').locator('[data-testid="published-figure"]').textContent()).toBe('published: 66.7% [20.8%, 93.9%] Wilson');
    expect(await cellA('split').locator('.fig').textContent()).toBe('pass 1, syntax 2');
    expect(await page.locator(`[data-testid="result-row"][data-run="${runB}"] [data-cell="split"] .fig`).textContent()).toBe('pass 3, syntax 3');
    expect(await page.locator('[data-testid="not-reverified"]').count()).toBe(0);

    await page.click(`[data-testid="result-row"][data-run="${runA}"] [data-testid="row-link"]`);
    await page.waitForSelector(`[data-testid="result-detail"][data-run="${runA}"] [data-testid="row-verdict"][data-status="changed"]`);
    expect(await page.$$eval('[data-testid="altered-answer"]', (els) => els.map((e) => e.getAttribute('data-attempt')))).toEqual([alteredAnswer]);
    for (const cell of ['pass1', 'split', 'strict']) {
      const listed = await page.$$eval(`[data-testid="cell-detail"][data-cell="${cell}"] [data-testid="changed-answer"]`, (els) => els.map((e) => [e.getAttribute('data-attempt'), e.getAttribute('data-altered'), e.textContent]));
      expect(listed).toHaveLength(1);
      expect(listed[0][0]).toBe(alteredAnswer);
      expect(listed[0][1]).toBe('true');
      expect(listed[0][2]).toMatch(/^sys_dup-v0 sample 0 round 0: pass \(strict\) \(v-[0-9a-f]+\) -> syntax \(v-[0-9a-f]+\), answer altered$/);
    }

    await page.click(`[data-testid="result-row"][data-run="${runB}"] [data-testid="row-link"]`);
    await page.waitForSelector(`[data-testid="result-detail"][data-run="${runB}"]`);
    expect(await page.locator('[data-testid="altered-answer"]').count()).toBe(0);
    expect(await page.$$eval('[data-testid="cell-detail"][data-verdict="changed"]', (els) => els.map((e) => e.getAttribute('data-cell')))).toEqual(['split']);
    const grade = await page.$$eval('[data-testid="changed-answer"]', (els) => els.map((e) => [e.getAttribute('data-attempt'), e.textContent]));
    expect(grade).toHaveLength(1);
    expect(grade[0][0]).toBe(editedGrade);
    expect(grade[0][1]).toMatch(/^sys_kill-v0 sample 1 round 0: semantic \(v-[0-9a-f]+\) -> syntax \(v-[0-9a-f]+\)$/);
    expect(await page.getAttribute('[data-testid="file-digest"]', 'data-matches')).toBe('false');
    await screenshot(page, 'results-edited-1400');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, TIMEOUT);

  it('Firefox re-verifies every cell; WebKitGTK shows the table and flags the altered answer', async () => {
    const url = `${host.url.replace(/\/$/, '')}${SUB}`;
    const ready = () => document.querySelector('[data-testid="results-page"]')?.getAttribute('data-loading') === 'ready';
    const rows = () => [...document.querySelectorAll('[data-testid="result-row"]')].map((r) => r.getAttribute('data-run'));
    const firefox = await launchEngine('firefox');
    try {
      const tab = await firefox.open(1400, 900);
      await tab.goto(url);
      await tab.waitFor('the published table', ready, 120_000);
      expect(await tab.eval(rows)).toEqual([runA, runB]);
      await tab.click('[data-testid="reverify-all"]');
      await tab.waitFor('every row re-verified', () => [...document.querySelectorAll('[data-testid="result-row"]')].every((r) => ['reproduced', 'changed'].includes(r.getAttribute('data-status')!)), 180_000);
      const verdicts = await tab.eval(() => [...document.querySelectorAll('[data-testid="result-cell"]')].map((c) => c.getAttribute('data-verdict')));
      expect(verdicts).toEqual(Array(7).fill('reproduced'));
      await tab.screenshot(join(ARTIFACTS, 'results-firefox-1400.png'));
      expect(tab.errors).toEqual([]);
      await tab.close();
    } finally {
      await firefox.close();
    }
    const webkit = await launchEngine('webkit');
    try {
      const tab = await webkit.open(390, 844);
      await tab.goto(`${host.url.replace(/\/$/, '')}${EDITED}`);
      await tab.waitFor('the published table', ready, 120_000);
      expect(await tab.eval(rows)).toEqual([runA, runB]);
      const flags = () => [...document.querySelectorAll('[data-testid="altered-flag"]')].map((f) => [f.closest('[data-testid="result-row"]')?.getAttribute('data-run'), f.textContent]);
      expect(await tab.eval(flags)).toEqual([[runA, '⚠ 1 altered']]);
      await tab.click(`[data-testid="result-row"][data-run="${runA}"] [data-testid="row-link"]`);
      await tab.waitFor('the altered answer listed', () => [...document.querySelectorAll('[data-testid="altered-answer"]')].map((a) => a.getAttribute('data-attempt')).join(','));
      expect(await tab.eval(() => [...document.querySelectorAll('[data-testid="altered-answer"]')].map((a) => a.getAttribute('data-attempt')))).toEqual([alteredAnswer]);
      await tab.screenshot(join(ARTIFACTS, 'results-webkit-390.png'));
      await tab.close();
    } finally {
      await webkit.close();
    }
  }, TIMEOUT);

  it('osvlab publish --check: the pristine site reproduced (exit 0), the edited one names the same answer and cells (exit 1)', async () => {
    const [pristine, edited] = await Promise.all([cli(['publish', '--check', join(ROOT, 'site', SUB)]), cli(['publish', '--check', join(ROOT, 'site', EDITED)])]);
    expect(pristine.code, pristine.err + pristine.out).toBe(0);
    expect(pristine.out).toMatch(/^Two fake models: 2 of 2 runs reproduced by verifier v-[0-9a-f]+$/m);
    expect(pristine.out).not.toMatch(/changed|altered/);

    expect(edited.code, edited.err).toBe(1);
    const lines = edited.out.split('\n');
    expect(lines[0]).toMatch(/^Two fake models, edited: 0 of 2 runs reproduced/);
    expect(lines.filter((l) => /^ {2}\S.*: changed, /.test(l)).map((l) => l.trim().split(':')[0])).toEqual(['pass@1', 'first answers', 'lemma passes', 'first answers']);
    expect(lines.filter((l) => l.startsWith('  altered answer '))).toEqual([expect.stringMatching(/^ {2}altered answer sys_dup-v0 sample 0 round 0: its SHA-256 [0-9a-f]{12}\.\.\. is not the manifest's [0-9a-f]{12}\.\.\.$/)]);
    expect(lines.filter((l) => /^ {4}sys_dup-v0 sample 0 round 0: pass \(strict\) \(v-[0-9a-f]+\) -> syntax \(v-[0-9a-f]+\), answer altered$/.test(l))).toHaveLength(3);
    expect(lines.filter((l) => /^ {4}sys_kill-v0 sample 1 round 0: semantic \(v-[0-9a-f]+\) -> syntax \(v-[0-9a-f]+\)$/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('    '))).toHaveLength(4);
  }, TIMEOUT);
});
