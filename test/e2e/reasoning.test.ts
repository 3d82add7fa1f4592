/**
 * A reasoning model on the Evaluate page, in a real Chromium against the
 * fake provider (issue 15 "Done when"): the fake rejects temperature with 400
 * as reasoning models do and answers with a `<think>` block holding a wrong
 * draft before the real answer. With the sampling fields left at the
 * provider's defaults, "Test connection" and the run send the same
 * parameters, the run passes on the real answer, and the tokens include the
 * reasoning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { codeAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { newPage } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();
const KEY = 'test-key-reasoning-0123456789';
let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider({ key: KEY, rejectSampling: true });
});
afterAll(async () => {
  await fake?.close();
});

const spec = oracleSpec('sys_set_runnable')!;
const draft = spec.replace('dt.proc_state.PROC_RUNNABLE', 'dt.proc_state.PROC_RUNNING');
const answer = `<think>\nDraft:\n\`\`\`python\n${draft}\`\`\`\nWrong state; fix it.\n</think>\n\n${codeAnswer(spec)}`;

async function configure(page: import('playwright-core').Page) {
  await page.goto(env.site.url + '#/evaluate');
  await page.selectOption('[data-testid="provider"]', 'openai-compatible');
  // A bare local host, as Ollama's address is usually typed: the client adds /v1.
  await page.fill('[data-testid="base-url"]', fake.url);
  await page.fill('[data-testid="model"]', 'deepseek-r1');
  await page.fill('[data-testid="api-key"]', KEY);
  await page.locator('[data-testid="api-key"]').dispatchEvent('change');
  await page.fill('[data-testid="max-tokens"]', '8000');
}

describe('evaluate with a reasoning model', () => {
  it('sends no temperature by default, tests with the run\'s parameters, grades the answer after </think>, counts reasoning tokens', async () => {
    fake.reset();
    fake.respond(() => ({ kind: 'text', text: answer, usage: { input: 1000, output: 300, reasoning: 700 } }));
    const { page, context } = await newPage(env.browser);
    try {
      await configure(page);
      await page.click('[data-testid="test-connection"]');
      await page.waitForSelector('[data-testid="connection"][data-kind="ok"]');
      const test = fake.requests.at(-1)!;

      await page.fill('[data-testid="selection"]', 'sys_set_runnable-v0');
      await page.click('[data-testid="start-run"]');
      await expect.poll(() => page.locator('[data-testid="run-progress"]').textContent(), { timeout: 300_000 }).toMatch(/Run done/);
      const run = fake.requests.filter((q) => q !== test);
      expect(run).toHaveLength(1);
      for (const q of [test, run[0]]) {
        expect(q.path).toBe('/v1/chat/completions');
        expect(q.body).not.toHaveProperty('temperature');
        expect(q.body.max_tokens).toBe(8000);
      }
      const text = (await page.locator('[data-testid="run-progress"]').textContent()) ?? '';
      expect(text).toMatch(/1 of 1 \(100%\) · passed 1/);
      // completion_tokens holds the 700 reasoning tokens: 300 + 700 out, counted once.
      expect(text).toContain('tokens 1000 in / 1000 out');
    } finally {
      await context.close();
    }
  }, 420_000);

  it('a temperature set by the user is what "Test connection" sends, so the refusal shows before any run', async () => {
    fake.reset();
    const { page, context } = await newPage(env.browser);
    try {
      await configure(page);
      await page.fill('[data-testid="temperature"]', '0');
      await page.click('[data-testid="test-connection"]');
      await page.waitForSelector('[data-testid="connection"][data-kind="failed"]');
      expect(await page.locator('[data-testid="connection"]').textContent()).toMatch(/LLM015.*'temperature'/);
      expect(fake.requests.at(-1)?.body.temperature).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});
