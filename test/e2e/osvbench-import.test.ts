/**
 * The Runs page in a real Chromium: OSVBench's own results file imported as
 * a run and graded by the in-browser verifier; and a run whose provider
 * goes away mid-run listed as unfinished there, with a Resume button.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proseAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { ARTIFACTS, ROOT, newPage, screenshot } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();
const TASKS: { id: string; handler: string }[] = JSON.parse(readFileSync(join(ROOT, 'tasks/hv6/tasks.json'), 'utf8')).tasks;
const KILL = readFileSync(join(ROOT, 'tasks/hv6/specs/sys_kill.py'), 'utf8');
const indexOf = (id: string) => TASKS.findIndex((t) => t.id === id);

let fake: FakeProvider | undefined;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake?.close();
});

describe('OSVBench results on the Runs page', () => {
  it('imports the results file as a run, grades every sample in the browser, and shows the categories', async () => {
    // OSVBench style: the function alone, no fence (import lines kept until bare functions are merged).
    const results = {
      [indexOf('sys_kill-v0')]: { sys_kill: [`\n${KILL.trim()}\n`, proseAnswer()] },
      [indexOf('sys_set_runnable-v0')]: { sys_set_runnable: [proseAnswer()] },
    };
    mkdirSync(ARTIFACTS, { recursive: true });
    const path = join(ARTIFACTS, 'osvbench_results.json');
    writeFileSync(path, JSON.stringify(results, null, 4));

    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/runs');
    await page.setInputFiles('[data-testid="import-run"]', path);
    await page.waitForSelector('[data-testid="metrics"]');
    // Grading runs in the verifier pool; the metrics fill in as grades arrive.
    await expect
      .poll(() => page.locator('[data-testid="metrics"]').textContent(), { timeout: 300_000, interval: 1000 })
      .toMatch(/OSVBench pass \/ syntax \/ semantic\s*1 \/ 2 \/ 0/);
    const metrics = (await page.locator('[data-testid="metrics"]').textContent()) ?? '';
    expect(metrics).toMatch(/pass rate\s*33\.3%/);
    expect(metrics).toMatch(/syntax rate\s*66\.7%/);
    expect(metrics).toMatch(/lemma passes\s*1 of 1/);
    const rows = page.locator('[data-testid="attempts"] tbody tr');
    expect(await rows.count()).toBe(3);
    const cells = (await page.locator('[data-testid="attempts"] tbody tr td:nth-child(4)').allTextContents()).map((t) => t.trim());
    expect(cells.map((t) => t.split(/\s+/)[0]).sort()).toEqual(['pass', 'syntax', 'syntax']);
    // A failed answer says why beside its category.
    for (const t of cells.filter((c) => c.startsWith('syntax'))) expect(t).toContain('The answer contains no code');
    expect(await page.locator('.detail').textContent()).toContain('answers from osvbench_results.json (osvbench)');
    // Issue 37 item 17: nothing was measured for answers from a file, and the page says unknown rather than 0.
    const config = (await page.locator('[data-testid="run-config"]').textContent())!;
    expect(config).toContain('provider, prompt and shots unknown');
    expect(config).not.toContain('openai-compatible');
    expect(metrics).toMatch(/tokens in \/ out\s*unknown/);
    expect(metrics).toMatch(/latency median \/ p90\s*unknown/);
    expect(metrics).not.toMatch(/0 \/ 0/);
    expect((await page.locator('[data-testid="attempts"] tbody tr td:nth-child(5)').allTextContents()).map((t) => t.trim())).toEqual(['unknown', 'unknown', 'unknown']);
    // An imported file has nothing to ask a provider: no Resume.
    expect(await page.locator('[data-testid="runs-resume"]').count()).toBe(0);
    await screenshot(page, 'runs-osvbench-import');
    expect(errors).toEqual([]);
    await context.close();
  }, 420_000);

  it('a run whose provider goes away mid-run is listed as unfinished, with a Resume button', async () => {
    const f = fake!;
    // No answer ever comes: the provider goes away with every request still in flight, whatever the machine's speed.
    f.respond(() => ({ kind: 'hang' }));
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/evaluate');
    await page.selectOption('[data-testid="provider"]', 'openai-compatible');
    await page.fill('[data-testid="base-url"]', `${f.url}/v1`);
    await page.fill('[data-testid="model"]', 'fake-model');
    await page.fill('[data-testid="selection"]', 'handler:sys_kill');
    // Start only once the page has the task bundle and counts the selection (the label names the tasks).
    await expect.poll(() => page.locator('[data-testid="start-run"]').textContent(), { timeout: 120_000 }).toMatch(/Start: 5 tasks/);
    await page.click('[data-testid="start-run"]');
    // The first request waits for the prompts, which took over 60 s on a loaded CI machine (and once
    // did not come within 180 s): on a timeout, say what the page shows instead.
    const shown = async () => `requests ${f.requests.length}; alerts: ${(await page.locator('[role="alert"]').allTextContents()).join(' | ') || 'none'}; progress: ${(await page.locator('[data-testid="run-progress"]').allTextContents()).join(' ') || 'none'}`;
    await expect.poll(shown, { timeout: 300_000, interval: 1000 }).toMatch(/^requests [1-9]/);
    // The provider dies with requests in flight.
    await f.close();
    fake = undefined;
    await expect
      .poll(() => page.locator('[data-testid="run-progress"]').textContent(), { timeout: 180_000, interval: 1000 })
      .toMatch(/Run (failed|incomplete|cancelled)/);
    await page.goto(env.site.url + '#/runs');
    await page.waitForSelector('[data-testid="run-list"] li');
    const item = page.locator('[data-testid="run-list"] li', { hasText: 'unfinished' });
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.locator('[data-testid="runs-resume"]').count()).toBe(1);
    await screenshot(page, 'runs-unfinished');
    // Resume hands the run to the Evaluate page, which runs it again.
    await item.locator('[data-testid="runs-resume"]').click();
    await expect.poll(() => page.url()).toContain('#/evaluate');
    await page.waitForSelector('[data-testid="run-progress"]');
    await context.close();
  }, 600_000);
});
