/**
 * A study file run from the Evaluate page in Chromium gives the table
 * `osvlab study` prints for the same file: the same cells, runs and numbers
 * (the page and the CLI share the plan and the table, and both talk real
 * HTTP to the fake provider answering as the scripted learner). The Runs
 * page then lists the study and shows its table again. Kept small (2 tasks,
 * 2 feedback modes, 1 repair round): grading in the page is the cost.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Table } from '../../src/core/eval/stats/table.ts';
import { startCli } from '../cli-process.ts';
import { learner } from '../fake-provider/learner.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { generatedTasks } from '../artefacts.ts';
import { newPage, screenshot } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();
let fake: FakeProvider;
let dir: string;

beforeAll(async () => {
  fake = await startFakeProvider();
  fake.respond(learner());
  dir = mkdtempSync(join(tmpdir(), 'osvlab-e2e-study-'));
});
afterAll(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

generatedTasks();

/** The rows of a table on the page, as text. */
async function tableOf(page: import('playwright-core').Page, testid: string): Promise<Table> {
  return page.$eval(`[data-testid="${testid}"]`, (t) => ({
    header: [...t.querySelectorAll('thead th')].map((th) => th.textContent!.trim()),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())),
  }));
}

describe('a study in the page', () => {
  it('gives the CLI\'s table for the same study file, and the Runs page shows it again', async () => {
    const study = JSON.stringify(
      {
        name: 'page-and-cli',
        provider: 'openai-compatible',
        baseUrl: `${fake.url}/v1`,
        models: ['learner'],
        feedback: ['counterexample', 'none'],
        shots: 0,
        repair: 1,
        tasks: 'sys_dup-v0,sys_dup-v1',
        grading: { strict: false },
      },
      null,
      2,
    );
    const file = join(dir, 'study.json');
    writeFileSync(file, study);
    const cli = await startCli(['study', file, '--out', join(dir, 'out'), '--json'], { PATH: process.env.PATH, HOME: process.env.HOME }).result;
    expect(cli.code, cli.err).toBe(0);
    const fromCli = (JSON.parse(cli.out) as { tables: { cells: Table; pairs: Table } }).tables;
    // The page's study report leaves out the determinism columns: it has no solver at hand to group the samples by
    // meaning (docs/research.md §8); every other column is the CLI's.
    const keep = fromCli.cells.header.flatMap((h, i) => (h === 'largest' || h === 'consensus' ? [] : [i]));
    expect(keep.length).toBe(fromCli.cells.header.length - 2);
    const want = { ...fromCli, cells: { header: keep.map((i) => fromCli.cells.header[i]), rows: fromCli.cells.rows.map((r) => keep.map((i) => r[i])) } };
    // What the learner gives: both first answers wrong; a counterexample fixes both, nothing fixes none.
    expect(want.cells.rows.map((r) => [r[1], r[3], r[4]])).toEqual([
      ['counterexample', '0.0%', '100.0% (r1)'],
      ['none', '0.0%', '0.0% (r1)'],
    ]);

    const { page, context, errors } = await newPage(env.browser);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${env.site.url}#/evaluate`);
    // Issue 37 item 18: the page's file leaves the base URL to the provider settings, which say so and give it.
    await page.selectOption('[data-testid="provider"]', 'openai-compatible');
    await page.fill('[data-testid="base-url"]', `${fake.url}/v1`);
    await expect.poll(() => page.textContent('[data-testid="study-settings"]')).toContain(`${fake.url}/v1`);
    expect(await page.textContent('[data-testid="study-settings"]')).toContain('openai-compatible');
    await page.fill('[data-testid="study-text"]', study.replace(/\n\s*"baseUrl": [^\n]*\n/, '\n'));
    expect(await page.inputValue('[data-testid="study-text"]')).not.toContain('baseUrl');
    await page.click('[data-testid="study-start"]');
    await page.waitForSelector('[data-testid="study-status"][data-kind="finished"]', { timeout: 400_000 });
    expect(await page.textContent('[data-testid="study-status"]')).toContain('Study done');
    expect(await tableOf(page, 'study-cells')).toEqual(want.cells);
    expect(await tableOf(page, 'study-pairs')).toEqual(want.pairs);
    await page.locator('[data-testid="study-view"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'study-evaluate-1400');

    await page.goto(`${env.site.url}#/runs`);
    await page.click('[data-testid="study-list"] a');
    await page.waitForSelector('[data-testid="study-cells"]');
    expect(await tableOf(page, 'study-cells')).toEqual(want.cells);
    await screenshot(page, 'study-runs-1400');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'study-runs-390');
    // A cell's run page shows its repair curve.
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.click('[data-testid="study-view"] details summary');
    await page.click('[data-testid="study-view"] details a');
    await page.waitForSelector('[data-testid="run-repair-curve"]');
    expect((await tableOf(page, 'run-curve-table')).rows.map((r) => r[1])).toEqual(['0.0%', '100.0%']);
    await screenshot(page, 'study-run-curve-1400');
    expect(errors).toEqual([]);
    await context.close();
  }, 600_000);
});
