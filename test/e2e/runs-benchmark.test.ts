/**
 * The Runs page in Chromium with what `osvlab report` shows beside the
 * metrics: a results file in upstream's layout imported with a benchmark
 * file in upstream's shape (its trailing comma named by line) gets the
 * per-class table, as upstream counts and with the misspellings read right;
 * a run graded with the variant matrix shows the setting, the counts and
 * the table. The answers are prose (graded without a proof).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportRun } from '../../src/core/eval/files/run-file.ts';
import { UPSTREAM_HANDLERS } from '../../src/core/eval/files/osvbench.ts';
import { type AttemptRecord, type PromptRecord, attemptId } from '../../src/core/eval/run/run-types.ts';
import { createRun } from '../../src/core/eval/run/run-setup.ts';
import { promptHash } from '../../src/core/eval/run/runner.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import { proseAnswer } from '../fake-provider/answers.ts';
import { upstreamBenchmark } from '../eval/files/upstream-benchmark.ts';
import { ARTIFACTS, newPage, screenshot } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();

describe('the Runs page: benchmark file and variant matrix', () => {
  it("a results file in upstream's layout with its benchmark file gets the per-class table, both ways", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // sys_kill's correct implementation, and a buggy entry labelled with upstream's misspelling.
    const kill = UPSTREAM_HANDLERS.indexOf('sys_kill');
    const dup = UPSTREAM_HANDLERS.indexOf('sys_dup') + 49;
    const results = join(ARTIFACTS, 'upstream_results.json');
    writeFileSync(results, JSON.stringify({ [kill]: { sys_kill: [proseAnswer(), 'Error!'] }, [dup]: { sys_dup: [proseAnswer()] } }, null, 4));
    const bench = upstreamBenchmark(245, (i) => (i === dup ? 'mmeory leak' : 'incorrect pointer'));
    const benchPath = join(ARTIFACTS, 'benchmark.json');
    writeFileSync(benchPath, bench.text);

    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/runs');
    await page.setInputFiles('[data-testid="import-run"]', results);
    await page.waitForSelector('[data-testid="metrics"]');
    // Without a benchmark file the page says how to get the table.
    await expect.poll(() => page.locator('.detail').textContent()).toContain('Choose a benchmark file');
    await expect.poll(() => page.locator('[data-testid="metrics"]').textContent(), { timeout: 300_000, interval: 1000 }).toMatch(/OSVBench pass \/ syntax \/ semantic\s*0 \/ 3 \/ 0/);
    await page.setInputFiles('[data-testid="import-benchmark"]', benchPath);
    await expect.poll(() => page.locator('section.list p.ok').textContent()).toContain(`line ${bench.commaLine}: BENCH003`);
    expect(await page.locator('[data-testid="benchmark-chosen"]').textContent()).toContain('benchmark.json (245 tasks)');
    const rows = await page.locator('[data-testid="class-table"] tbody tr').allTextContents();
    const row = (label: string) => rows.find((r) => r.startsWith(label))!;
    expect(row('correct')).toContain('0 / 2 (1)');
    expect(row('memory leak')).toMatch(/0 \/ 0 \(0\).*0\.0% · 0 \/ 1 \(1\)/);
    expect(row('incorrect pointer')).toContain('0 / 0 (0)');
    await page.locator('[data-testid="class-table"]').screenshot({ path: join(ARTIFACTS, 'runs-class-table.png') });
    // The choice is kept in this browser: a reload shows the table again.
    await page.reload();
    await page.waitForSelector('[data-testid="class-table"]');
    expect(errors).toEqual([]);
    await context.close();
  }, 420_000);

  it('a run graded with the variant matrix shows the setting, the counts and each answer on every variant', async () => {
    const tasks = await loadTasks();
    const kill = tasks.filter((t) => t.handler === 'sys_kill');
    const runId = `e2e-matrix-${Date.now()}`;
    const ids = ['sys_kill-v0', 'sys_kill-v1'];
    const refs = ids.map((id) => tasks.find((t) => t.id === id)!);
    const config = {
      provider: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:9/v1', model: 'matrix-model', params: {}, tasks: ids,
      shots: 0, n: 1, repairRounds: 0, concurrency: 1, gradeConcurrency: 1, grading: { timeoutMs: 60_000, strict: true, matrix: true },
    };
    const run = { ...createRun({ id: runId, config, provenance: { app: 'test', verifier: 'test' }, tasks: refs, now: 1_700_000_000_000 }), status: 'done' as const };
    const messages = [{ role: 'user' as const, content: 'Write the spec.' }];
    const prompt: PromptRecord = { hash: await promptHash(undefined, messages), messages };
    // The first answer catches every bug; the second is satisfied by one buggy variant too; the third
    // (a second sample) is refuted everywhere, the correct implementation included: it catches nothing.
    const matrixOf = (missed: string | undefined) => Object.fromEntries(kill.map((t) => [t.id, t.bug_count === 0 || t.id === missed ? 'verified' : 'refuted'] as const));
    const attempt = (taskId: string, sample: number, matrix: Record<string, 'verified' | 'refuted'>): AttemptRecord => ({
      id: attemptId(runId, taskId, sample, 0), runId, taskId, sample, round: 0, promptHash: prompt.hash, cacheKey: 'c'.repeat(64),
      request: { provider: 'openai-compatible', baseUrl: config.baseUrl, model: config.model, params: {}, sample },
      response: { text: 'spec', model: config.model, usage: { input: 10, output: 5 }, finishReason: 'stop', latencyMs: 100 },
      cost: 0,
      grade: { category: 'pass', extracted: 'spec', diagnosis: '', ms: 1, matrix },
      createdAt: 1_700_000_000_000,
    });
    const attempts: AttemptRecord[] = [
      attempt(ids[0], 0, matrixOf(undefined)),
      attempt(ids[1], 0, matrixOf('sys_kill-v3')),
      attempt(ids[0], 1, Object.fromEntries(kill.map((t) => [t.id, 'refuted'] as const))),
    ];
    const path = join(ARTIFACTS, `${runId}.json`);
    writeFileSync(path, JSON.stringify(exportRun({ run, tasks: refs, prompts: [prompt], attempts, exportedAt: new Date(0).toISOString() })));

    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/runs');
    await page.setInputFiles('[data-testid="import-run"]', path);
    await page.waitForSelector('[data-testid="run-matrix"]');
    expect(await page.locator('.detail > p.muted').first().textContent()).toContain('variant matrix on');
    expect(await page.locator('[data-testid="run-matrix-summary"]').textContent()).toBe(
      '3 first answers checked on every variant of its handler: 2 verify the correct implementation; of these, 1 is refuted by every buggy variant and 1 also verifies a buggy one (missing its bug).',
    );
    await page.click('text=Each first answer on every variant');
    const row = (i: number) => page.locator('[data-testid="run-matrix"] tbody tr').nth(i).locator('td');
    const cells = await row(2).allTextContents();
    expect(cells.slice(0, 2)).toEqual(['sys_kill-v1', '0']);
    const head = await page.locator('[data-testid="run-matrix"] thead th').allTextContents();
    expect(head).toEqual(['Task', 'Sample', 'v0 (correct)', 'v1', 'v2', 'v3', 'v4']);
    expect(cells.slice(2).map((c) => c.replace(/^\S+ /, ''))).toEqual(['verified', 'refuted', 'refuted', 'verified', 'refuted']);
    // Issue 37 item 14: each cell is coloured and marked by whether it is what a good spec gives there, with a legend.
    const meanings = (i: number) => row(i).evaluateAll((tds) => tds.slice(2).map((td) => td.getAttribute('data-meaning')));
    expect(await meanings(2)).toEqual(['expected', 'expected', 'expected', 'unexpected', 'expected']);
    // The answer refuted on the correct implementation: its refutations on v1-v4 catch nothing, and are not marked as good.
    expect(await row(1).allTextContents().then((c) => c.slice(0, 2))).toEqual(['sys_kill-v0', '1']);
    expect(await meanings(1)).toEqual(['unexpected', 'moot', 'moot', 'moot', 'moot']);
    const colour = (i: number, j: number) => row(i).nth(j).evaluate((td) => getComputedStyle(td).color);
    expect(await colour(1, 3)).not.toBe(await colour(0, 3));
    const legend = (await page.locator('[data-testid="run-matrix"] [data-testid="matrix-legend"]').textContent())!;
    expect(legend).toContain('catches nothing');
    expect(legend).toContain('its bug is missed');
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.locator('[data-testid="run-matrix"]').screenshot({ path: join(ARTIFACTS, 'runs-matrix.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[data-testid="run-matrix"]').screenshot({ path: join(ARTIFACTS, 'runs-matrix-390.png') });
    await screenshot(page, 'runs-matrix-390-page');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
