/**
 * The course as a learner meets it (issue: the rough edges of lessons 1, 5
 * and 14), in a real Chromium with the real verifier: a wrong answer's
 * verdict fits a phone; the counterexample's spec-line link moves the cursor,
 * names old.current, speaks the spec's names and says what differs when the
 * condition fails; Start over asks and can be undone; the course has an end,
 * and a pass with the solution put in is marked as such.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { editorText, screenshot, setEditorText, waitForEditor } from './harness.ts';
import { sticksOut } from './fit.ts';
import { useSite } from './setup.ts';

const env = useSite();

async function open(width: number, route: string): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await env.browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } });
  const page = await context.newPage();
  await page.goto(env.site.url + route);
  await waitForEditor(page, 'lesson-editor');
  return { page, close: () => context.close() };
}

async function checkAnswer(page: Page, kind: 'passed' | 'failed'): Promise<void> {
  await page.click('[data-testid="lesson-check"]');
  await page.waitForSelector(`[data-testid="lesson-grade"][data-kind="${kind}"]`, { timeout: 120_000 });
}

/** The 1-based line of the lesson editor's cursor, and whether the editor has focus. */
function cursor(page: Page): Promise<{ line: number; focused: boolean }> {
  return page.$eval('[data-testid="lesson-editor"]', (el) => {
    const ed = (el as HTMLElement & { monacoEditor?: { getPosition(): { lineNumber: number } | null; hasTextFocus(): boolean } }).monacoEditor!;
    return { line: ed.getPosition()?.lineNumber ?? 0, focused: ed.hasTextFocus() };
  });
}

/** The answer the course database holds for exercise `key` (what a reload shows). */
function savedAnswer(page: Page, key: string): Promise<string | undefined> {
  return page.evaluate(
    (k) =>
      new Promise<string | undefined>((resolve) => {
        const req = indexedDB.open('osvlab-course');
        req.onsuccess = () => {
          const get = req.result.transaction('exercises').objectStore('exercises').get(k);
          get.onsuccess = () => resolve((get.result as { answer?: string } | undefined)?.answer);
          get.onerror = () => resolve(undefined);
        };
        req.onerror = () => resolve(undefined);
      }),
    key,
  );
}

describe('learner', () => {
  it('item 1: a wrong answer on a phone fits the screen, counterexample and buttons included', async () => {
    const { page, close } = await open(390, '#/learn/state-machines/fix-state');
    await checkAnswer(page, 'failed');
    await page.locator('[data-testid="counterexample"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'learner-390-verdict');
    expect(await sticksOut(page)).toEqual([]);
    // Each value of the state table is on screen with its column's name.
    const cells = await page.locator('[data-testid="cex-table"] td').evaluateAll((tds) =>
      tds.map((td) => ({ label: td.getAttribute('data-label'), right: td.getBoundingClientRect().right })),
    );
    expect(cells.map((c) => c.label)).toContain("Implementation's new");
    for (const c of cells) expect(c.right, String(c.label)).toBeLessThanOrEqual(390);
    await close();
  });

  it("items 2-3: lesson 5's counterexample names current in spec terms, and its spec-line link moves the cursor there", async () => {
    const { page, close } = await open(1400, '#/learn/refinement/describe-the-bug');
    await checkAnswer(page, 'failed');
    const where = (await page.locator('[data-testid="cex-context"]').textContent())!;
    // "Who is calling?": the caller is in the counterexample, and the facts use the table's names.
    expect(where).toMatch(/current = \d+/);
    expect(where).toMatch(/procs\.ppid\[pid=\d+\] = \d+/);
    expect(where).not.toContain('proc_table');
    // The link points at the condition (the conjunct to drop is there) and puts the cursor on it.
    const link = page.locator('[data-testid="cex-line"]');
    expect(await link.getAttribute('data-kind')).toBe('condition');
    const line = Number(await link.getAttribute('data-line'));
    const text = await editorText(page, 'lesson-editor');
    expect(text.split('\n')[line - 1]).toMatch(/^\s*cond = z3\.And\(/);
    await link.click();
    await expect.poll(() => cursor(page)).toEqual({ line, focused: true });
    await screenshot(page, 'learner-1400-lesson5');
    await close();
  });

  it('item 6: the last exercise, passed with the solution put in, is marked so, and the course says it has ended', async () => {
    const { page, close } = await open(1400, '#/learn/full-spec/close');
    const starter = await editorText(page, 'lesson-editor');
    await checkAnswer(page, 'failed');
    await page.click('[data-testid="lesson-solution"]');
    await page.getByRole('button', { name: 'Put it in the editor' }).click();
    await expect.poll(() => editorText(page, 'lesson-editor')).not.toBe(starter);
    const solution = await editorText(page, 'lesson-editor');
    await checkAnswer(page, 'passed');
    expect(await page.locator('[data-testid="lesson-grade"]').textContent()).toContain('with the solution');
    expect(await page.getAttribute('[data-testid="exercise-tab-close"]', 'data-passed')).toBe('solution');
    expect(await page.textContent('[data-testid="progress-count"]')).toMatch(/^1 of \d+ exercises done, 1 with the solution$/);
    const end = page.locator('[data-testid="course-end"]');
    await end.waitFor();
    expect(await end.textContent()).toContain('The end of the course');
    await end.scrollIntoViewIfNeeded();
    await screenshot(page, 'learner-1400-course-end');
    await close();
  }, 240_000);

  it('item 5: Start over asks before replacing an answer, and Ctrl+Z brings the answer back', async () => {
    const { page, close } = await open(1400, '#/learn/state-machines/fix-state');
    const starter = await editorText(page, 'lesson-editor');
    const mine = starter.replace('PROC_RUNNING', 'PROC_RUNNABLE');
    expect(mine).not.toBe(starter);
    await setEditorText(page, mine, 'lesson-editor');
    // Keeping the answer changes nothing.
    await page.click('[data-testid="lesson-reset"]');
    await page.waitForSelector('[data-testid="lesson-reset-confirm"]');
    expect(await editorText(page, 'lesson-editor')).toBe(mine);
    await page.click('[data-testid="lesson-reset-no"]');
    expect(await editorText(page, 'lesson-editor')).toBe(mine);
    await page.click('[data-testid="lesson-reset"]');
    await page.click('[data-testid="lesson-reset-yes"]');
    await expect.poll(() => editorText(page, 'lesson-editor')).toBe(starter);
    // One Ctrl+Z in the editor brings the answer back, and it is the answer again (saved as typed).
    await page.click('[data-testid="lesson-editor"] .view-lines');
    await page.keyboard.press('Control+z');
    await expect.poll(() => editorText(page, 'lesson-editor')).toBe(mine);
    await expect.poll(() => savedAnswer(page, 'state-machines/fix-state')).toBe(mine);
    await page.reload();
    await waitForEditor(page, 'lesson-editor');
    await expect.poll(() => editorText(page, 'lesson-editor')).toBe(mine);

    await close();
  }, 240_000);
});
