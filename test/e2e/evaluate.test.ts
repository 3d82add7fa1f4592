/**
 * The Evaluate page in a real Chromium against the local fake provider
 * (a real HTTP server speaking the OpenAI wire format): the connection test,
 * key handling, and a whole run with a reload in the middle.
 *
 * The run needs the generated benchmark tasks (tasks/hv6/tasks.json); it is
 * `todo` while that bundle is empty.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
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

function taskCount(): number {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'tasks/hv6/tasks.json'), 'utf8')).tasks ?? []).length;
  } catch {
    return 0;
  }
}
const runnable = taskCount() > 0;
const itRun = runnable ? it : (name: string, _fn?: unknown) => it.todo(name);

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
    await page.waitForSelector('[data-testid="connection"][data-kind="ok"]', { timeout: 30_000 });
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
    await page.waitForSelector('[data-testid="connection"][data-kind="failed"]', { timeout: 30_000 });
    expect(await page.locator('[data-testid="connection"]').textContent()).toContain('LLM001');
    await context.close();
  });

  itRun('runs against the fake provider, survives a reload in the middle, and finishes', async () => {
    fake.reset();
    const spec = readFileSync(join(ROOT, 'tasks/hv6/specs/sys_kill.py'), 'utf8');
    // Slow answers, so the reload lands mid-run.
    fake.respond(() => ({ kind: 'slow', ms: 1500, reply: { kind: 'text', text: codeAnswer(spec), usage: { input: 1000, output: 300 } } }));
    const { page, context } = await newPage(env.browser);
    await configure(page, true);
    await page.fill('[data-testid="selection"]', 'handler:sys_kill');
    await page.click('[data-testid="start-run"]');
    await page.waitForSelector('[data-testid="run-progress"]');
    await expect.poll(() => fake.requests.length, { timeout: 60_000 }).toBeGreaterThan(0);
    await page.reload();
    await page.click('[data-testid="resume-run"]');
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
});
