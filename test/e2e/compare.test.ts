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

/**
 * A finished one-sample run whose first answers pass exactly on the tasks
 * marked true; with `rounds`, a task marked with a number passes in that
 * repair round (every round before it fails) and one marked false never does.
 */
async function runFile(name: string, outcomes: Record<string, boolean | number>, rounds = 0): Promise<{ path: string; runId: string }> {
  const runId = `e2e-${name}-${Date.now()}`;
  const ids = Object.keys(outcomes);
  const passRound = (id: string) => (outcomes[id] === true ? 0 : outcomes[id] === false ? null : (outcomes[id] as number));
  const tasks = ids.map((id) => ({ id, handler: id.replace(/-v\d+$/, ''), bug_classes: [], bug_count: 0, hash: HASH }));
  const config = {
    provider: 'openai-compatible' as const,
    baseUrl: 'http://127.0.0.1:9/v1',
    model: `model-${name}`,
    params: {},
    tasks: ids,
    shots: 0,
    n: 1,
    repairRounds: rounds,
    concurrency: 1,
    gradeConcurrency: 1,
  };
  const run = { ...createRun({ id: runId, name, config, provenance: { app: 'test', verifier: 'test' }, tasks, now: 1_700_000_000_000 }), status: 'done' as const };
  const messages = [{ role: 'user' as const, content: 'Write the spec.' }];
  const prompt: PromptRecord = { hash: await promptHash(undefined, messages), messages };
  const chain = (taskId: string) => {
    const pass = passRound(taskId);
    return Array.from({ length: Math.min(rounds, pass ?? rounds) + 1 }, (_, round) => ({ taskId, round, pass: round === pass }));
  };
  const attempts: AttemptRecord[] = ids.flatMap(chain).map(({ taskId, round, pass }) => ({
    id: attemptId(runId, taskId, 0, round),
    runId,
    taskId,
    sample: 0,
    round,
    promptHash: prompt.hash,
    cacheKey: HASH,
    request: { provider: 'openai-compatible', baseUrl: config.baseUrl, model: config.model, params: {}, sample: 0 },
    response: { text: 'spec', model: config.model, usage: { input: 10, output: 5 }, finishReason: 'stop', latencyMs: 100 },
    cost: 0,
    grade: { category: pass ? 'pass' : 'semantic', extracted: null, diagnosis: '', ms: 1 },
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

  it('issue 37 items 13, 16: a run with repairs against one without is compared after each own last round, both curves drawn; the curve table names what it counts', async () => {
    // The same first answers (as the response cache gives them); only A repairs: v1 of sys_kill in round 1, v0 of sys_reap in round 2.
    const first = { 'sys_kill-v0': true, 'sys_kill-v1': false, 'sys_reap-v0': false, 'sys_reap-v1': false };
    const a = await runFile('repair-on', { ...first, 'sys_kill-v1': 1, 'sys_reap-v0': 2 }, 2);
    const b = await runFile('repair-off', first);
    const { page, context } = await newPage(env.browser);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(env.site.url + '#/runs');
    await page.setInputFiles('[data-testid="import-run"]', b.path);
    await page.waitForSelector('[data-testid="metrics"]');
    await page.setInputFiles('[data-testid="import-run"]', a.path);
    await expect.poll(() => page.locator('h2').textContent()).toBe('repair-on');
    await page.selectOption('[data-testid="compare"]', b.runId);
    await page.waitForSelector('[data-testid="compare-view"]');
    // First answers are the same: +0.0; after each own last round, A 3 of 4 and B 1 of 4.
    expect(await page.locator('[data-testid="compare-summary"]').textContent()).toContain('+0.0 points');
    const last = (await page.locator('[data-testid="compare-last-round"]').textContent())!;
    expect(last).toContain('A round 2, B round 0');
    expect(last).toContain('pass@1 A 75.0%, B 25.0%');
    expect(last).toContain('-50.0 points');
    expect(await page.locator('[data-testid="compare-view"] .warn').textContent()).toContain('each after its own last round');
    // Both curves: two series in the legend, B held at its one round across A's.
    const curve = page.locator('[data-testid="compare-repairs"] [data-testid="repair-curve"]');
    expect(await curve.locator('.legend li').allTextContents()).toEqual(['A: repair-on', 'B: repair-off']);
    expect(await curve.locator('polyline').count()).toBe(2);
    expect(await curve.locator('[data-testid="curve-held"]').count()).toBe(1);
    expect(await curve.locator('circle').count()).toBe(4);
    await page.locator('[data-testid="compare-repairs"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'runs-1400-compare-repairs');

    // Item 16: the run's curve table says what it counts; round 0's new passes are first answers, not fixes.
    const table = page.locator('[data-testid="run-curve-table"]');
    expect(await table.locator('thead th').allTextContents()).toEqual(['round', 'pass@1', '95% CI', 'passed by then', 'new passes', 'still failing', 'no answer yet', 'tokens', 'tokens per new pass', 'cost per new pass']);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(3, 7).map((td) => td.textContent)));
    expect(rows).toEqual([['1', '1', '3', '0'], ['2', '1', '2', '0'], ['3', '1', '1', '0']]);
    expect(await page.locator('[data-testid="run-curve-note"]').textContent()).toContain('round 0: first answers that passed');
    expect((await page.locator('figure.chart').allTextContents()).join(' ')).not.toMatch(/\(1 tasks\)/);
    await page.locator('[data-testid="run-repair-curve"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'runs-1400-curve-table');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[data-testid="compare-repairs"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'runs-390-compare-repairs');
    await context.close();
  });

  it('issue 55 item 3: two runs with no task in common have nothing to compare, and the view shows no statistics', async () => {
    const a = await runFile('apart-a', { 'sys_kill-v0': false });
    const b = await runFile('apart-b', { 'sys_reap-v0': true });
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/runs');
    await page.setInputFiles('[data-testid="import-run"]', b.path);
    await page.waitForSelector('[data-testid="metrics"]');
    await page.setInputFiles('[data-testid="import-run"]', a.path);
    await expect.poll(() => page.locator('h2').textContent()).toBe('apart-a');
    await page.selectOption('[data-testid="compare"]', b.runId);
    await page.waitForSelector('[data-testid="compare-view"]');
    expect(await page.locator('[data-testid="compare-nothing"]').textContent()).toBe('Nothing to compare: the runs have no task in common (A has 1 task, B 1 task).');
    expect(await page.locator('[data-testid="compare-view"]').textContent()).not.toMatch(/McNemar|B − A/);
    expect(await page.locator('[data-testid="compare-dropped"] li').allTextContents()).toEqual(['sys_kill-v0: only-in-a', 'sys_reap-v0: only-in-b']);
    await context.close();
  });
});
