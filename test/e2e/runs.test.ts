/**
 * The Runs pages in a real Chromium: a run file made with the product's own
 * exporter is imported, its metrics and attempts shown, an attempt opened in
 * the playground, and the run exported and imported again in a fresh browser
 * context with the same metrics.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, ROOT, editorText, newPage, screenshot, waitForEditor } from './harness.ts';
import { makeRunFile } from './run-file.ts';
import { useSite } from './setup.ts';

const env = useSite();

const ORACLE_KILL = readFileSync(join(ROOT, 'tasks/hv6/specs/sys_kill.py'), 'utf8');
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
    // Issue 55 item 4: a failed answer says why beside its outcome.
    expect(await a.page.locator('[data-testid="attempt-reason"]').allTextContents()).toEqual(['The answer contains no code. Answer with exactly one ```python fenced block holding the complete spec.']);
    // The metrics' terms are defined under the table.
    expect(await a.page.locator('[data-testid="metric-terms"] dt').allTextContents()).toEqual(['pass@1', 'pass@k', 'pass rate', 'lemma passes', 'bug-following']);
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
    // Its address is the spec's share link: a reload opens the same spec and verifies it again.
    expect(await a.page.evaluate(() => location.hash)).toMatch(/^#\/s\//);
    await a.page.reload();
    await waitForEditor(a.page);
    await expect.poll(() => editorText(a.page)).toBe(ORACLE_KILL);
    await a.page.waitForSelector('[data-testid="verdict"][data-status="verified"]', { timeout: 120_000 });
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
