/**
 * The run's page groups its samples by meaning (src/app/components/
 * RunBehaviours.svelte over core/eval/stats/determinism.ts), in Chromium:
 * an imported run of two tasks (one pass, one syntax failure) has one class
 * per task, a mean largest share of 100% and a consensus pass@1 of 50%.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchEngine } from './driver.ts';
import { ARTIFACTS, type Site, ensureBuilt, serve } from './harness.ts';
import { join } from 'node:path';
import { makeRunFile } from './run-file.ts';

const LONG = 240_000;
let site: Site;
beforeAll(async () => {
  site = await serve(await ensureBuilt());
});
afterAll(async () => site?.close());

it("the run's page shows each task's classes and the determinism figures", async () => {
  const { path } = await makeRunFile();
  const engine = await launchEngine('chromium');
  const tab = await engine.open(1400, 900);
  try {
    await tab.goto(`${site.url}#/runs`);
    await tab.waitFor('the import field', () => !!document.querySelector('[data-testid="import-run"]'), LONG);
    await tab.upload('[data-testid="import-run"]', path);
    await tab.waitFor('the run', () => !!document.querySelector('[data-testid="run-group"]'), LONG);
    await tab.click('[data-testid="run-group"]');
    await tab.waitFor('the classes', () => document.querySelector('[data-testid="run-behaviours"]')?.getAttribute('data-state') === 'done', LONG);
    expect(await tab.eval(() => document.querySelector('[data-testid="run-determinism"]')?.textContent ?? '')).toMatch(/Mean largest class 100\.0%.*consensus pass@1 50\.0%/);
    const rows = await tab.eval(() => [...document.querySelectorAll('[data-testid="run-task-classes"]')].map((r) => r.textContent?.replace(/\s+/g, ' ').trim()));
    expect(rows).toEqual(['sys_kill-v0[0] pass', 'sys_reap-v0[0] no spec']);
    await tab.eval(() => document.querySelector('[data-testid="run-behaviours"]')?.scrollIntoView());
    await tab.screenshot(join(ARTIFACTS, 'run-behaviours-chromium-1400.png'));
  } finally {
    await tab.close();
    await engine.close();
  }
}, LONG);
