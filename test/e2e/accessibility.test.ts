/**
 * Accessibility in a real Chromium with axe-core (@axe-core/playwright): no
 * serious or critical violation on any route (the dark theme on the routes
 * with the most colours, to keep the file short), nor on a refuted verdict
 * in the playground, a graded lesson exercise, the teacher view with a link
 * and a teacher's exercise.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { violations } from './axe.ts';
import { setEditorText, waitForEditor } from './harness.ts';
import { makeRunFile } from './run-file.ts';
import { useSite } from './setup.ts';

const env = useSite();

const ROUTES: [name: string, hash: string, ready: string][] = [
  ['play', '#/play', '[data-testid="spec-editor"][data-ready="true"]'],
  ['tasks', '#/tasks', '[data-testid="task-count"]'],
  ['task', '#/tasks/sys_dup-v1', '[data-testid="task-description"]'],
  ['no task', '#/tasks/does-not-exist', '[data-testid="no-such-task"]'],
  ['learn', '#/learn', '[data-testid="lesson"]'],
  ['field exercise', '#/learn/kernel-state/which-field', '[data-testid="exercise"]'],
  ['teacher', '#/learn/teacher', '[data-testid="teacher-view"]'],
  ['evaluate', '#/evaluate', '[data-testid="start-run"]'],
  ['runs', '#/runs', '[data-testid="run-list"]'],
  ['about', '#/about', 'main h1'],
  ['no page', '#/nowhere', '[data-testid="no-such-page"]'],
];

describe('accessibility', () => {
  const contexts: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  /** The dark theme's routes: editors, lesson text, forms, tables. */
  const DARK = new Set(['play', 'field exercise', 'evaluate', 'run']);

  for (const scheme of ['light', 'dark'] as const) {
    it(`item 20: no serious or critical violation on ${scheme === 'light' ? 'any route' : 'the main routes in the dark theme'}`, async () => {
      const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: scheme });
      contexts.push(context);
      const page = await context.newPage();
      const { path, runId } = await makeRunFile(false);
      await page.goto(env.site.url + '#/runs');
      await page.setInputFiles('[data-testid="import-run"]', path);
      await page.waitForSelector('[data-testid="metrics"]');
      const found: Record<string, string[]> = {};
      const routes = [...ROUTES, ['run', `#/runs/${encodeURIComponent(runId)}`, '[data-testid="metrics"]'] as [string, string, string]];
      for (const [name, hash, ready] of routes.filter(([n]) => scheme === 'light' || DARK.has(n))) {
        await page.goto(env.site.url + hash);
        await page.waitForSelector(ready);
        const v = await violations(page);
        if (v.length) found[name] = v;
      }
      expect(found).toEqual({});
    }, 240_000);
  }

  it("item 20: no serious or critical violation on a refuted verdict, a graded lesson exercise, the teacher view with a link and a teacher's exercise", async () => {
    const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const found: Record<string, string[]> = {};
    const record = async (name: string) => {
      const v = await violations(page);
      if (v.length) found[name] = v;
    };

    await page.goto(env.site.url + '#/play');
    await waitForEditor(page);
    await page.selectOption('[data-testid="handler"]', 'sys_set_runnable');
    await waitForEditor(page);
    await setEditorText(page, 'import z3\nfrom libirpy import util\n\ndef sys_set_runnable(old, pid):\n    return z3.BoolVal(True), old\n');
    await page.click('[data-testid="verify"]');
    await page.waitForSelector('[data-testid="verdict"][data-status="refuted"]', { timeout: 120_000 });
    await record('refuted verdict');

    await page.goto(env.site.url + '#/learn/state-machines/fix-state');
    await waitForEditor(page, 'lesson-editor');
    await page.click('[data-testid="lesson-check"]');
    await page.waitForSelector('[data-testid="lesson-grade"][data-kind="failed"]', { timeout: 120_000 });
    await page.click('[data-testid="lesson-hint"]');
    await page.click('[data-testid="lesson-solution"]');
    await record('graded lesson exercise');

    await page.goto(env.site.url + '#/learn/teacher');
    await page.waitForSelector('[data-testid="t-refute-sys_alloc_vector-v2"]');
    await page.check('[data-testid="t-hide"]');
    await page.click('[data-testid="t-make-link"]');
    const link = await page.locator('[data-testid="t-link"]').inputValue({ timeout: 120_000 });
    await record('teacher view with a link');
    await page.goto(link);
    await page.waitForSelector('[data-testid="shared-exercise"]');
    await waitForEditor(page, 'lesson-editor');
    await record("teacher's exercise");
    expect(found).toEqual({});
  }, 300_000);
});
