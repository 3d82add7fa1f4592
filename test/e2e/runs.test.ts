/**
 * The Runs pages in a real Chromium: a run file made with the product's own
 * exporter is imported, its metrics and attempts shown, an attempt opened in
 * the playground, and the run exported and imported again in a fresh browser
 * context with the same metrics.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportRun } from '../../src/core/bench/export.ts';
import { type AttemptRecord, type PromptRecord, attemptId } from '../../src/core/bench/run-types.ts';
import { createRun, promptHash } from '../../src/core/bench/runner.ts';
import { ARTIFACTS, ROOT, editorText, newPage, screenshot, waitForEditor } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();

const ORACLE_KILL = readFileSync(join(ROOT, 'tasks/hv6/specs/sys_kill.py'), 'utf8');
const HASH = 'a'.repeat(64);

/** A small finished run: two tasks, one sample each; one passes, one is a syntax failure. */
async function makeRunFile(): Promise<{ path: string; runId: string }> {
  const runId = `e2e-run-${Date.now()}`;
  const tasks = [
    { id: 'sys_kill-v0', handler: 'sys_kill', bug_classes: [], bug_count: 0, hash: HASH },
    { id: 'sys_reap-v0', handler: 'sys_reap', bug_classes: [], bug_count: 0, hash: HASH },
  ];
  const run = {
    ...createRun({
      id: runId,
      name: 'e2e import',
      config: {
        provider: 'openai-compatible',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'fake-model',
        params: { temperature: 0 },
        tasks: tasks.map((t) => t.id),
        shots: 0,
        n: 1,
        repairRounds: 0,
        concurrency: 1,
        gradeConcurrency: 1,
      },
      provenance: { app: 'test', verifier: 'test' },
      tasks,
      now: 1_700_000_000_000,
    }),
    status: 'done' as const,
  };
  const messages = [{ role: 'user' as const, content: 'Write the spec.' }];
  const prompt: PromptRecord = { hash: await promptHash(undefined, messages), messages };
  const attempt = (taskId: string, category: 'pass' | 'syntax', text: string): AttemptRecord => ({
    id: attemptId(runId, taskId, 0, 0),
    runId,
    taskId,
    sample: 0,
    round: 0,
    promptHash: prompt.hash,
    cacheKey: HASH,
    request: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'fake-model', params: { temperature: 0 }, sample: 0 },
    response: { text, model: 'fake-model', usage: { input: 100, output: 50 }, finishReason: 'stop', latencyMs: 1200 },
    cost: 0,
    grade: { category, extracted: category === 'pass' ? text : null, diagnosis: '', ms: 10 },
    createdAt: 1_700_000_000_000,
    gradedAt: 1_700_000_001_000,
  });
  const attempts = [attempt('sys_kill-v0', 'pass', ORACLE_KILL), attempt('sys_reap-v0', 'syntax', 'no code here')];
  const file = exportRun({ run, tasks, prompts: [prompt], attempts, exportedAt: new Date(0).toISOString() });
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${runId}.json`);
  writeFileSync(path, JSON.stringify(file));
  return { path, runId };
}

describe('runs', () => {
  it('imports a run, shows metrics and attempts, opens an attempt in the playground, and round-trips export/import', async () => {
    const { path, runId } = await makeRunFile();
    const a = await newPage(env.browser);
    await a.page.goto(env.site.url + '#/runs');
    await a.page.setInputFiles('[data-testid="import-run"]', path);
    await a.page.waitForSelector('[data-testid="metrics"]');
    const metrics = await a.page.locator('[data-testid="metrics"]').textContent();
    expect(metrics).toMatch(/pass rate\s*50\.0%/);
    expect(metrics).toMatch(/syntax rate\s*50\.0%/);
    expect(await a.page.locator('[data-testid="attempts"] tbody tr').count()).toBe(2);
    await screenshot(a.page, 'runs-detail');

    // Export through the page and keep the downloaded file.
    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.click('[data-testid="export-run"]')]);
    const exported = join(ARTIFACTS, `${runId}-exported.json`);
    await download.saveAs(exported);
    const file = JSON.parse(readFileSync(exported, 'utf8'));
    expect(file.run.id).toBe(runId);
    expect(file.attempts).toHaveLength(2);
    expect(JSON.stringify(file)).not.toMatch(/api[-_]?key/i);

    // Importing the same run again writes nothing and says why.
    await a.page.setInputFiles('[data-testid="import-run"]', exported);
    await expect.poll(() => a.page.locator('[data-testid="import-error"]').textContent()).toContain('already exists');

    // Drill down: the passing attempt opens in the playground with the model's spec.
    await a.page.getByRole('button', { name: 'open in playground' }).click();
    await waitForEditor(a.page);
    await expect.poll(() => editorText(a.page)).toBe(ORACLE_KILL);
    await a.context.close();

    // A fresh context imports the exported file and shows the same metrics.
    const b = await newPage(env.browser);
    await b.page.goto(env.site.url + '#/runs');
    await b.page.setInputFiles('[data-testid="import-run"]', exported);
    await b.page.waitForSelector('[data-testid="metrics"]');
    expect(await b.page.locator('[data-testid="metrics"]').textContent()).toBe(metrics);
    await b.context.close();
  });

  it('refuses a damaged run file and names the problem', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/runs');
    const bad = join(ARTIFACTS, 'bad-run.json');
    writeFileSync(bad, JSON.stringify({ format: 'osvlab-run', formatVersion: 1, run: { id: 5 } }));
    await page.setInputFiles('[data-testid="import-run"]', bad);
    await expect.poll(() => page.locator('[data-testid="import-error"]').textContent()).toContain('$.');
    expect(await page.locator('[data-testid="run-list"] li').count()).toBe(0);
    await context.close();
  });
});
