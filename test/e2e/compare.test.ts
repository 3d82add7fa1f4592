/**
 * The Compare view of the Runs page in a real Chromium: two run files made
 * with the product's exporter are imported, one is compared with the other,
 * and the view shows the pairs, the flips, the difference and the exact
 * McNemar p worked out by hand below, the task left out, and the published
 * reference rows with their label.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportRun } from '../../src/core/eval/files/run-file.ts';
import { type AttemptRecord, type PromptRecord, attemptId } from '../../src/core/eval/run/run-types.ts';
import { createRun } from '../../src/core/eval/run/run-setup.ts';
import { promptHash } from '../../src/core/eval/run/runner.ts';
import { ARTIFACTS, newPage, screenshot } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();
const HASH = 'b'.repeat(64);

/** A finished one-sample run whose first answers pass exactly on the tasks marked true. */
async function runFile(name: string, outcomes: Record<string, boolean>): Promise<{ path: string; runId: string }> {
  const runId = `e2e-${name}-${Date.now()}`;
  const ids = Object.keys(outcomes);
  const tasks = ids.map((id) => ({ id, handler: id.replace(/-v\d+$/, ''), bug_classes: [], bug_count: 0, hash: HASH }));
  const config = {
    provider: 'openai-compatible' as const,
    baseUrl: 'http://127.0.0.1:9/v1',
    model: `model-${name}`,
    params: {},
    tasks: ids,
    shots: 0,
    n: 1,
    repairRounds: 0,
    concurrency: 1,
    gradeConcurrency: 1,
  };
  const run = { ...createRun({ id: runId, name, config, provenance: { app: 'test', verifier: 'test' }, tasks, now: 1_700_000_000_000 }), status: 'done' as const };
  const messages = [{ role: 'user' as const, content: 'Write the spec.' }];
  const prompt: PromptRecord = { hash: await promptHash(undefined, messages), messages };
  const attempts: AttemptRecord[] = ids.map((taskId) => ({
    id: attemptId(runId, taskId, 0, 0),
    runId,
    taskId,
    sample: 0,
    round: 0,
    promptHash: prompt.hash,
    cacheKey: HASH,
    request: { provider: 'openai-compatible', baseUrl: config.baseUrl, model: config.model, params: {}, sample: 0 },
    response: { text: 'spec', model: config.model, usage: { input: 10, output: 5 }, finishReason: 'stop', latencyMs: 100 },
    cost: 0,
    grade: { category: outcomes[taskId] ? 'pass' : 'semantic', extracted: null, diagnosis: '', ms: 1 },
    createdAt: 1_700_000_000_000,
  }));
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${runId}.json`);
  writeFileSync(path, JSON.stringify(exportRun({ run, tasks, prompts: [prompt], attempts, exportedAt: new Date(0).toISOString() })));
  return { path, runId };
}

describe('compare view', () => {
  it('compares two imported runs on the tasks both answered', async () => {
    const a = await runFile('run-a', { 'sys_kill-v0': true, 'sys_kill-v1': true, 'sys_reap-v0': false, 'sys_reap-v1': false });
    const b = await runFile('run-b', { 'sys_kill-v0': true, 'sys_kill-v1': false, 'sys_reap-v0': true, 'sys_reap-v1': true, 'sys_dup-v0': true });
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/runs');
    await page.setInputFiles('[data-testid="import-run"]', b.path);
    await page.waitForSelector('[data-testid="metrics"]');
    await page.setInputFiles('[data-testid="import-run"]', a.path);
    await expect.poll(() => page.locator('h2').textContent()).toBe('run-a');
    await page.selectOption('[data-testid="compare"]', b.runId);
    await page.waitForSelector('[data-testid="compare-view"]');

    // 4 pairs; sys_dup-v0 is only in B. A passes 2 of 4, B 3 of 4: B - A = +25.0 points.
    expect(await page.locator('[data-testid="compare-pairs"]').textContent()).toMatch(/4 tasks both runs answered.*1 task left out/s);
    const summary = (await page.locator('[data-testid="compare-summary"]').textContent())!;
    expect(summary).toContain('pass@1 A 50.0%, B 75.0%');
    expect(summary).toContain('+25.0 points');
    expect(summary).toContain('pass in A only 1, in B only 2');
    // Exact McNemar with b = 1, c = 2: 2 * P[X <= 1] for X ~ Bin(3, 1/2) = 2 * 4/8, capped at 1.
    expect(await page.locator('[data-testid="mcnemar-p"]').textContent()).toBe('1.0000');
    expect(await page.locator('[data-testid="flips-a"] li').allTextContents()).toEqual(['sys_kill-v1']);
    expect(await page.locator('[data-testid="flips-b"] li').allTextContents()).toEqual(['sys_reap-v0', 'sys_reap-v1']);
    expect(await page.locator('[data-testid="compare-dropped"] li').allTextContents()).toEqual(['sys_dup-v0: only-in-b']);
    // By bug count: the bug-free and buggy variants of this build's tasks (v0 and v1) are separate rows.
    const groups = await page.locator('[data-testid="compare-groups"] tbody tr').allTextContents();
    expect(groups.some((g) => g.startsWith('bug count: 0 (correct)'))).toBe(true);
    // The published figures are labelled as such, beside the runs' own pass@1.
    expect(await page.locator('[data-testid="reference-label"]').textContent()).toContain("published numbers on upstream's kernel");
    const ref = await page.locator('[data-testid="reference-rows"] tr').allTextContents();
    expect(ref[0]).toContain('run-a (this app)');
    expect(ref[0]).toContain('50.0%');
    expect(ref.some((r) => r.includes('GPT-4o (published)') && r.includes('38.78%'))).toBe(true);
    await screenshot(page, 'runs-compare');
    await context.close();
  });
});
