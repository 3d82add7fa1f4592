/**
 * The Evaluate and Runs pages as a researcher meets them (issue: what a
 * researcher hits), in a real Chromium against the local fake provider: the
 * form is checked as it is typed, the task selection reads lists and says
 * how many before Start, the model placeholder follows the provider, a run
 * that fails says so consistently, a run's attempt opens in the playground
 * under its own name, and a comparison fits a phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proseAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { generatedTasks } from '../artefacts.ts';
import { newPage, screenshot, waitForEditor } from './harness.ts';
import { sticksOut } from './fit.ts';
import { makeRunFile } from './run-file.ts';
import { useSite } from './setup.ts';

const env = useSite();
let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider({ key: 'the-right-key' });
});
afterAll(() => fake?.close());
generatedTasks();

async function evaluatePage(width = 1400): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await env.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(env.site.url + '#/evaluate');
  await page.waitForSelector('[data-testid="start-run"]');
  await expect.poll(() => selectionNote(page).textContent()).toMatch(/of 245 tasks/);
  return { page, close: () => context.close() };
}

const startButton = (page: Page) => page.locator('[data-testid="start-run"]');
/** What the page says beside the Tasks field: the count, or what is wrong with the selection. */
const selectionNote = (page: Page) => page.locator('[data-testid="selection"]').locator('xpath=../following-sibling::span[1]');

describe('researcher', () => {
  it('item 15: every field is checked as it is typed, and Start waits for all of them', async () => {
    const { page, close } = await evaluatePage();
    await page.fill('[data-testid="model"]', 'fake-model');
    await expect.poll(() => startButton(page).isDisabled()).toBe(false);
    await page.getByLabel('Samples per task (n)').fill('0');
    await page.getByLabel('Requests at once').fill('-3');
    await page.getByLabel('Temperature').fill('7');
    await page.fill('[data-testid="base-url"]', 'not a url');
    expect(await startButton(page).isDisabled()).toBe(true);
    expect(await page.textContent('[data-testid="error-n"]')).toContain('from 1 to 20');
    expect(await page.textContent('[data-testid="error-concurrency"]')).toContain('not -3');
    expect(await page.textContent('[data-testid="error-temperature"]')).toContain('from 0 to 2');
    expect(await page.textContent('[data-testid="error-baseUrl"]')).toContain('is not a URL');
    expect(await page.getByLabel('Samples per task (n)').getAttribute('aria-invalid')).toBe('true');
    // The bad URL is never fetched (as a relative URL, it would hit this site and say HTTP 404).
    expect(await page.isDisabled('[data-testid="test-connection"]')).toBe(true);
    await screenshot(page, 'researcher-1400-form-errors');
    await page.getByLabel('Samples per task (n)').fill('2');
    await page.getByLabel('Requests at once').fill('4');
    await page.getByLabel('Temperature').fill('0.2');
    await page.fill('[data-testid="base-url"]', `${fake.url}/v1`);
    await expect.poll(() => startButton(page).isDisabled()).toBe(false);
    expect(await page.locator('[data-testid^="error-"]').count()).toBe(0);
    await close();
  });

  it('items 17-18: an empty selection is refused, handler lists read either way, the count is on Start, the placeholder follows the provider', async () => {
    const { page, close } = await evaluatePage();
    await page.fill('[data-testid="model"]', 'fake-model');
    await page.fill('[data-testid="selection"]', '');
    await expect.poll(() => selectionNote(page).textContent()).toContain('empty');
    expect(await startButton(page).isDisabled()).toBe(true);
    await page.fill('[data-testid="selection"]', 'handler:sys_kill, handler:sys_reap');
    await expect.poll(() => selectionNote(page).textContent()).toBe('10 of 245 tasks');
    await page.fill('[data-testid="selection"]', 'handler:sys_kill,sys_reap');
    await expect.poll(() => selectionNote(page).textContent()).toBe('10 of 245 tasks');
    expect(await startButton(page).textContent()).toBe('Start: 10 tasks');

    const placeholders = new Set<string>();
    for (const p of ['openai', 'anthropic', 'gemini', 'openai-compatible']) {
      await page.selectOption('[data-testid="provider"]', p);
      placeholders.add((await page.getAttribute('[data-testid="model"]', 'placeholder'))!);
    }
    expect(placeholders.size).toBe(4);
    await page.selectOption('[data-testid="provider"]', 'anthropic');
    expect(await page.getAttribute('[data-testid="model"]', 'placeholder')).toContain('claude');
    await close();
  });

  it('item 16: a failed run counts its unanswered attempts, ends its message once, and its table headers keep whole words', async () => {
    fake.reset();
    const { page, close } = await evaluatePage();
    await page.selectOption('[data-testid="provider"]', 'openai-compatible');
    await page.fill('[data-testid="base-url"]', `${fake.url}/v1`);
    await page.fill('[data-testid="model"]', 'fake-model');
    await page.fill('[data-testid="api-key"]', 'a-wrong-key');
    await page.locator('[data-testid="api-key"]').dispatchEvent('change');
    await page.fill('[data-testid="selection"]', 'first:2');
    await page.click('[data-testid="start-run"]');
    const ended = page.locator('[data-testid="run-progress"] p', { hasText: /^Run / });
    await ended.waitFor();
    const text = (await ended.textContent())!;
    expect(text).toMatch(/^Run failed: /);
    expect(text).not.toContain('..');
    const failed = Number(/(\d+) failed/.exec((await page.textContent('[data-testid="attempt-counts"]'))!)![1]);
    expect(failed).toBeGreaterThan(0);
    const line = (await page.textContent('[data-testid="run-progress"] [role="status"]'))!;
    expect(Number(/unanswered or ungraded \(retried on resume\) (\d+)/.exec(line)![1])).toBeGreaterThanOrEqual(failed);
    // Each header is one line: its text's boxes all sit on the same row.
    const rows = await page.locator('[data-testid="live-attempts"] th').evaluateAll((ths) =>
      ths.map((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return [th.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size] as const;
      }),
    );
    for (const [name, lines] of rows) expect(lines, String(name)).toBe(1);
    await screenshot(page, 'researcher-1400-failed-run');
    await close();
  }, 120_000);

  it('issue 37 items 15, 11, 12: live rows say passed or not, the headline counts graded answers; Cancel marks what was under way and drops the ETA; the settings survive a reload (the key does not), and a resumed run shows its own configuration', async () => {
    fake.reset();
    // The first two answers are prose (not passed); every later request hangs, so one is in flight when Cancel comes.
    let asked = 0;
    fake.respond(() => (++asked <= 2 ? { kind: 'text', text: proseAnswer(), usage: { input: 20, output: 10 } } : { kind: 'hang' }));
    const { page, close } = await evaluatePage();
    await page.selectOption('[data-testid="provider"]', 'openai-compatible');
    await page.fill('[data-testid="base-url"]', `${fake.url}/v1`);
    await page.fill('[data-testid="model"]', 'fake-model-37');
    await page.fill('[data-testid="api-key"]', 'the-right-key');
    await page.locator('[data-testid="api-key"]').dispatchEvent('change');
    await page.fill('[data-testid="selection"]', 'first:3');
    await page.getByLabel('Repair rounds').fill('1');
    await page.getByLabel('Requests at once').fill('1');
    await page.click('[data-testid="start-run"]');
    const live = page.locator('[data-testid="live-attempts"]');
    await expect.poll(() => live.locator('tr[data-state="graded"]').count()).toBe(2);
    await live.locator('tr[data-state="sent"]').waitFor();
    // Item 15: a graded answer that did not pass says so, in the colour of a failure; the headline counts it.
    const statuses = await live.locator('tr[data-state="graded"] [data-testid="attempt-status"]').evaluateAll((tds) => tds.map((td) => [td.textContent, td.className]));
    for (const [text, cls] of statuses) {
      expect(text).toMatch(/^not passed \(\w+\)$/);
      expect(cls).toContain('st-not-passed');
    }
    expect(await page.textContent('[data-testid="answers-graded"]')).toBe('answers graded so far 2, 0 passing');
    // Issue 55 items 4 and 7: a failed answer's detail says why, timed by the verifier alone; the headline says what is in flight.
    for (const d of await live.locator('tr[data-state="graded"] td:last-child').allTextContents()) expect(d).toMatch(/^\w+: The answer contains no code\..* · verified in \d+\.\d s$/);
    expect(await page.textContent('[data-testid="in-flight"]')).toBe('in flight: 1 request waiting for the provider');
    expect(await page.textContent('[data-testid="run-tokens"]')).toMatch(/^tokens \d+ in \/ \d+ out$/);
    // Task ids are read whole, on one line.
    const idLines = await live.locator('tbody td:first-child').evaluateAll((tds) =>
      tds.map((td) => {
        const r = document.createRange();
        r.selectNodeContents(td);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
      }),
    );
    for (const n of idLines) expect(n).toBe(1);
    expect((await page.locator('[data-testid="running-config"]').textContent())!.replace(/\s+/g, ' ')).toMatch(/This run: 3 tasks × 1 sample · openai-compatible · fake-model-37 · 5 shots · 1 repair round/);
    // Issue 55 item 1: the form's default shots are the CLI's (RUN_DEFAULTS.shots), not 0.
    await screenshot(page, 'researcher-1400-live');

    // Item 11: after Cancel, no ETA and nothing reads as waiting.
    await page.click('[data-testid="cancel-run"]');
    await page.waitForSelector('[data-testid="run-ended"]');
    expect(await page.textContent('[data-testid="run-ended"]')).toMatch(/^Run cancelled/);
    expect(await page.locator('[data-testid="eta"]').count()).toBe(0);
    expect(await page.textContent('[data-testid="run-progress"] [role="status"]')).not.toContain('ETA');
    expect(await live.locator('tr[data-state="sent"], tr[data-state="retrying"], tr[data-state="grading"]').count()).toBe(0);
    const stopped = (await live.locator('tr[data-state="cancelled"]').first().textContent())!;
    expect(stopped).toContain('stopped');
    expect(stopped).toContain('cancelled; no answer: Resume sends it again');
    await screenshot(page, 'researcher-1400-cancelled');

    // Item 12: every setting is back after a reload; the key, never asked to be remembered, is not, and is nowhere in storage.
    await page.reload();
    await page.waitForSelector('[data-testid="start-run"]');
    expect(await page.inputValue('[data-testid="provider"]')).toBe('openai-compatible');
    expect(await page.inputValue('[data-testid="base-url"]')).toBe(`${fake.url}/v1`);
    expect(await page.inputValue('[data-testid="model"]')).toBe('fake-model-37');
    expect(await page.inputValue('[data-testid="selection"]')).toBe('first:3');
    expect(await page.getByLabel('Repair rounds').inputValue()).toBe('1');
    expect(await page.getByLabel('Requests at once').inputValue()).toBe('1');
    expect(await page.inputValue('[data-testid="api-key"]')).toBe('');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain('the-right-key');
    // A resumed run shows its own configuration, whatever the form says now.
    await page.fill('[data-testid="selection"]', 'first:1');
    await page.fill('[data-testid="api-key"]', 'the-right-key');
    await page.locator('[data-testid="api-key"]').dispatchEvent('change');
    await page.click('[data-testid="resume-run"]');
    await expect.poll(() => page.locator('[data-testid="running-config"]').textContent()).toContain('This run: 3 tasks');
    expect(await page.textContent('[data-testid="start-run"]')).toBe('A run is going (below)');
    await page.locator('[data-testid="run-progress"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'researcher-1400-resumed');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[data-testid="run-progress"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'researcher-390-resumed');
    expect(await sticksOut(page, '[data-testid="run-progress"]')).toEqual([]);
    await page.click('[data-testid="cancel-run"]');
    await page.waitForSelector('[data-testid="run-ended"]');
    await close();
  }, 180_000);

  let runs: { page: Page; a: { runId: string }; b: { runId: string }; close(): Promise<void> };
  afterAll(() => runs?.close());

  it("item 18: a run's attempt opens in the playground under the run's name, not as a shared link", async () => {
    const { page, context } = await newPage(env.browser);
    const a = await makeRunFile(false);
    const b = await makeRunFile(true);
    runs = { page, a, b, close: () => context.close() };
    await page.goto(env.site.url + '#/runs');
    for (const f of [a, b]) {
      await page.setInputFiles('[data-testid="import-run"]', f.path);
      await page.waitForSelector('[data-testid="metrics"]');
    }
    await page.goto(env.site.url + `#/runs/${encodeURIComponent(a.runId)}`);
    await page.waitForSelector('[data-testid="attempts"]');
    await page.getByRole('button', { name: 'open in playground' }).first().click();
    await waitForEditor(page);
    const banner = (await page.textContent('[data-testid="shared-banner"]'))!;
    expect(banner).not.toContain('shared link');
    expect(banner).toContain('e2e import');
    expect(banner).toContain('sys_kill-v0');
  });

  it('item 1: the paired comparison of two runs fits a phone', async () => {
    const { page, a, b } = runs;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(env.site.url + `#/runs/${encodeURIComponent(a.runId)}`);
    await page.waitForSelector('[data-testid="metrics"]');
    await page.selectOption('[data-testid="compare"]', b.runId);
    const groups = page.locator('[data-testid="compare-groups"]');
    await groups.waitFor();
    await groups.scrollIntoViewIfNeeded();
    await screenshot(page, 'researcher-390-compare');
    expect(await sticksOut(page, '[data-testid="compare-view"]')).toEqual([]);
    // Issue 37 item 19: chart text keeps a readable size on a phone (the drawing is laid out for its width, not scaled down).
    const sizes = await page.locator('figure.chart svg[role="img"]').evaluateAll((svgs) =>
      svgs.map((svg) => {
        const s = svg as SVGSVGElement;
        const scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
        return Math.min(...[...s.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
      }),
    );
    expect(sizes.length).toBeGreaterThan(1);
    for (const px of sizes) expect(px).toBeGreaterThanOrEqual(10.5);
    expect(await sticksOut(page, '.charts')).toEqual([]);
    await page.locator('.charts').scrollIntoViewIfNeeded();
    await screenshot(page, 'researcher-390-charts');
  });
});
