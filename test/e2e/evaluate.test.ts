/**
 * The Evaluate page in a real Chromium against the local fake provider
 * (a real HTTP server speaking the OpenAI wire format): the connection test,
 * key handling, and a whole run with a reload in the middle.
 *
 * The run needs the generated benchmark tasks (tasks/hv6/tasks.json); a
 * missing or empty bundle fails the suite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeAnswer, proseAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { generatedTasks } from '../artefacts.ts';
import { ROOT, newPage, screenshot } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();
let fake: FakeProvider;
const KEY = 'test-key-e2e-0123456789';

beforeAll(async () => {
  fake = await startFakeProvider({ key: KEY });
});
afterAll(async () => {
  await fake?.close();
});

generatedTasks();

async function configure(page: import('playwright-core').Page, remember = false) {
  await page.goto(env.site.url + '#/evaluate');
  await page.selectOption('[data-testid="provider"]', 'openai-compatible');
  await page.fill('[data-testid="base-url"]', `${fake.url}/v1`);
  await page.fill('[data-testid="model"]', 'fake-model');
  await page.fill('[data-testid="api-key"]', KEY);
  await page.locator('[data-testid="api-key"]').dispatchEvent('change');
  if (remember) await page.getByLabel('Remember on this device').check();
}

describe('evaluate', () => {
  it('tests the connection with the key, which stays in memory unless remembered', async () => {
    fake.reset();
    fake.respond(() => ({ kind: 'text', text: 'OK', usage: { input: 5, output: 1 } }));
    const { page, context } = await newPage(env.browser);
    await configure(page);
    await page.click('[data-testid="test-connection"]');
    await page.waitForSelector('[data-testid="connection"][data-kind="ok"]');
    expect(fake.requests.at(-1)?.key).toBe(KEY);
    const stored = await page.evaluate(() => JSON.stringify(localStorage));
    expect(stored).not.toContain(KEY);
    await screenshot(page, 'evaluate');
    // Remembered on request, and forgotten again when unticked.
    await page.getByLabel('Remember on this device').check();
    expect(await page.evaluate(() => JSON.stringify(localStorage))).toContain(KEY);
    await page.getByLabel('Remember on this device').uncheck();
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(KEY);
    await context.close();
  });

  it('reports a wrong key plainly', async () => {
    fake.reset();
    const { page, context } = await newPage(env.browser);
    await configure(page);
    await page.fill('[data-testid="api-key"]', 'wrong-key');
    await page.click('[data-testid="test-connection"]');
    await page.waitForSelector('[data-testid="connection"][data-kind="failed"]');
    expect(await page.locator('[data-testid="connection"]').textContent()).toContain('LLM001');
    await context.close();
  });

  it('runs against the fake provider, survives a reload in the middle, and finishes', async () => {
    fake.reset();
    const spec = readFileSync(join(ROOT, 'tasks/hv6/specs/sys_kill.py'), 'utf8');
    // No answer comes until the page has been reloaded, so the reload lands mid-run.
    let answer!: () => void;
    const gate = new Promise<void>((r) => (answer = r));
    fake.respond(() => ({ kind: 'gated', gate, reply: { kind: 'text', text: codeAnswer(spec), usage: { input: 1000, output: 300 } } }));
    const { page, context } = await newPage(env.browser);
    await configure(page, true);
    await page.fill('[data-testid="selection"]', 'handler:sys_kill');
    await page.click('[data-testid="start-run"]');
    await page.waitForSelector('[data-testid="run-progress"]');
    await expect.poll(() => fake.requests.length).toBeGreaterThan(0);
    await page.reload();
    await page.click('[data-testid="resume-run"]');
    answer();
    await expect
      .poll(() => page.locator('[data-testid="run-progress"]').textContent(), { timeout: 300_000 })
      .toMatch(/Run done/);
    // Every (task, sample) finished, and the correct answers passed.
    const text = (await page.locator('[data-testid="run-progress"]').textContent()) ?? '';
    const m = /(\d+) of (\d+) \(100%\) · passed (\d+)/.exec(text);
    expect(m).not.toBeNull();
    expect(m![1]).toBe(m![2]);
    expect(Number(m![3])).toBeGreaterThan(0);
    await context.close();
  }, 420_000);

  it('shows each attempt: retrying with the reason and the wait, answered, graded, and the provider error message', async () => {
    fake.reset();
    // Task 1: a 429 with Retry-After 1 s, then prose (graded at once, no proof); task 2: a request too long for the model.
    fake.enqueue({ kind: 'rate-limit', retryAfter: '1' }, { kind: 'text', text: proseAnswer(), usage: { input: 50, output: 20 } }, { kind: 'context-too-long' });
    const { page, context } = await newPage(env.browser);
    await configure(page);
    await page.fill('[data-testid="selection"]', 'first:2');
    await page.getByLabel('Requests at once').fill('1');
    await page.fill('[data-testid="model"]', `fake-model-${Date.now()}`);
    await page.click('[data-testid="start-run"]');
    const live = page.locator('[data-testid="live-attempts"]');
    await expect.poll(() => live.locator('tr[data-state="retrying"]').count()).toBe(1);
    const retrying = (await live.locator('tr[data-state="retrying"]').textContent()) ?? '';
    expect(retrying).toMatch(/retry 1 in 1\.0 s after LLM\d+/);
    // The request the model refused for good is unanswered: the run went through every task but is incomplete (resumable).
    await expect.poll(() => page.locator('[data-testid="run-progress"]').textContent()).toMatch(/Run incomplete/);
    expect(await live.locator('tr[data-state="graded"]').count()).toBe(1);
    const failed = (await live.locator('tr[data-state="failed"]').textContent()) ?? '';
    expect(failed).toMatch(/LLM\d+: \S/);
    // The Runs page shows the provider's message too, and the run's date.
    await page.click('text=See its results');
    await page.waitForSelector('[data-testid="attempts"]');
    const shown = (await page.locator('[data-testid="attempt-error"]').first().textContent()) ?? '';
    expect(shown).toBe(failed.slice(failed.indexOf('LLM')).trim());
    expect(await page.locator('[data-testid="run-dates"]').textContent()).toMatch(/Started \d{4}-\d\d-\d\d \d\d:\d\d/);
    await context.close();
  }, 120_000);

  it('marks answers reused from the response cache and does not count their tokens as spent', async () => {
    fake.reset();
    fake.respond(() => ({ kind: 'text', text: proseAnswer(), usage: { input: 700, output: 70 } }));
    const { page, context } = await newPage(env.browser);
    await configure(page);
    await page.fill('[data-testid="selection"]', 'first:2');
    await page.fill('[data-testid="model"]', `fake-cache-${Date.now()}`);
    // The previous run's "Run done" stays on screen until the new run starts: wait for this run's own result link.
    let lastRun: string | null = null;
    const runOnce = async () => {
      await page.click('[data-testid="start-run"]');
      const progress = page.locator('[data-testid="run-progress"]');
      await expect
        .poll(async () => (/Run done/.test((await progress.textContent()) ?? '') ? await progress.locator('a').getAttribute('href') : lastRun))
        .not.toBe(lastRun);
      lastRun = await progress.locator('a').getAttribute('href');
      return (await progress.textContent()) ?? '';
    };
    expect(await runOnce()).toContain('tokens 1400 in / 140 out');
    const sent = fake.requests.length;
    // The same settings are the same run (its id hashes the config): another
    // experiment with the same requests (strict off) gets them from the cache.
    await page.uncheck('[data-testid="strict"]');
    const second = await runOnce();
    expect(fake.requests.length).toBe(sent);
    expect(second).toContain('tokens 0 in / 0 out');
    expect(await page.locator('[data-testid="cached-count"]').textContent()).toContain('2 from the response cache (1400/140 tokens, not charged)');
    expect(await page.locator('[data-testid="live-attempts"] tr[data-cached="true"]').count()).toBe(2);
    await context.close();
  }, 120_000);

  it('Pause with one request at a time sends nothing more', async () => {
    fake.reset();
    // Every answer waits for the test's word, so the first is still in flight when Pause is pressed.
    let answer!: () => void;
    const gate = new Promise<void>((r) => (answer = r));
    fake.respond(() => ({ kind: 'gated', gate, reply: { kind: 'text', text: proseAnswer(), usage: { input: 10, output: 5 } } }));
    const { page, context } = await newPage(env.browser);
    await configure(page);
    await page.fill('[data-testid="selection"]', 'first:6');
    await page.getByLabel('Requests at once').fill('1');
    await page.fill('[data-testid="model"]', `fake-pause-${Date.now()}`);
    await page.click('[data-testid="start-run"]');
    await expect.poll(() => fake.requests.length).toBe(1);
    await page.click('[data-testid="pause"]');
    await page.waitForSelector('[data-testid="resume"]');
    // The request in flight finishes (answered and graded); nothing queued behind it may go out:
    // the page has no request out (none sent and waiting), and the provider got no other.
    answer();
    const counts = page.locator('[data-testid="attempt-counts"]');
    await expect.poll(() => counts.textContent()).toMatch(/\b0 sent and waiting\b.*\b1 graded\b/s);
    expect(fake.requests.length).toBe(1);
    await page.click('[data-testid="resume"]');
    await expect.poll(() => fake.requests.length).toBeGreaterThan(1);
    await context.close();
  }, 120_000);
});
