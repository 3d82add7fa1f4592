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
        const req = indexedDB.open('osvlab');
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

/** Issue 37: the course tried on a phone and with the keyboard (round 3). */
describe('learner, round 3', () => {
  it('items 5, 6: on a phone the exercise editor fits its text with one keyboard line; after a pass, #/learn offers where to go on, and the lesson list never scrolls in a box', async () => {
    const { page, close } = await open(390, '#/learn/state-machines/fix-state');
    const editor = page.locator('[data-testid="lesson-editor"]');
    const text = await editorText(page, 'lesson-editor');
    const wordLine = text.split('\n').findIndex((l) => l.includes('PROC_RUNNING')) + 1;
    expect(wordLine).toBeGreaterThan(10);
    // Every line is in view (the editor is as tall as its text) and the word to fix is on screen, not off to the right.
    type Ed = { getVisibleRanges(): { endLineNumber: number }[]; getModel(): { getLineCount(): number } };
    const shown = () =>
      editor.evaluate((el) => {
        const ed = (el as HTMLElement & { monacoEditor: Ed }).monacoEditor;
        return { last: ed.getVisibleRanges().at(-1)?.endLineNumber, lines: ed.getModel().getLineCount() };
      });
    await expect.poll(async () => { const s = await shown(); return s.last === s.lines; }).toBe(true);
    const word = page.locator('[data-testid="lesson-editor"] .view-line span', { hasText: 'PROC_RUNNING' }).last();
    const box = (await word.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // One keyboard line, which names the check key too.
    const help = await page.locator('[data-testid="exercise"]').evaluate((el) => [...el.querySelectorAll('p')].filter((p) => /Esc/.test(p.textContent ?? '')).map((p) => p.textContent!.trim()));
    expect(help).toHaveLength(1);
    expect(help[0]).toMatch(/Ctrl\+Enter checks your answer\. Tab indents/);
    await editor.scrollIntoViewIfNeeded();
    await screenshot(page, 'learner-390-exercise-editor');

    await setEditorText(page, text.replace('PROC_RUNNING', 'PROC_RUNNABLE'), 'lesson-editor');
    await checkAnswer(page, 'passed');
    await page.goto(env.site.url + '#/learn');
    const resume = page.locator('[data-testid="resume"] a');
    await resume.waitFor();
    expect(await resume.getAttribute('href')).toBe('#/learn/state-machines/failure-changes-nothing');
    // The lessons are one tap away, in the page's own flow (no box that scrolls on its own).
    const list = page.locator('[data-testid="lesson-list"]');
    expect(await list.isVisible()).toBe(false);
    await page.click('[data-testid="lesson-list-toggle"]');
    expect(await list.isVisible()).toBe(true);
    expect(await list.evaluate((el) => ({ overflow: getComputedStyle(el).overflowY, inner: el.scrollHeight - el.clientHeight }))).toEqual({ overflow: 'visible', inner: 0 });
    await screenshot(page, 'learner-390-resume');
    await resume.click();
    await page.waitForSelector('[data-testid="exercise-tab-failure-changes-nothing"][aria-selected="true"]');
    await close();
  }, 240_000);

  it('items 7, 8: the failing-call fix link points at the return; the exercise tabs are one Tab stop moved by arrows, and a skip link reaches the exercise', async () => {
    const { page, close } = await open(1400, '#/learn/state-machines/failure-changes-nothing');
    await checkAnswer(page, 'failed');
    const link = page.locator('[data-testid="cex-line"]');
    expect(await link.getAttribute('data-kind')).toBe('failure-state');
    const text = await editorText(page, 'lesson-editor');
    const line = Number(await link.getAttribute('data-line'));
    expect(text.split('\n')[line - 1]).toMatch(/^\s*return cond, new\s*$/);
    await link.click();
    await expect.poll(() => cursor(page)).toEqual({ line, focused: true });

    // Tabs: only the selected one is a Tab stop; arrows move focus, Enter opens.
    const tabs = page.locator('[data-testid="exercise-tabs"] [role="tab"]');
    expect(await tabs.evaluateAll((ts) => ts.map((t) => (t as HTMLElement).tabIndex))).toEqual([-1, 0, -1]);
    await tabs.nth(1).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('exercise-tab-only-your-child');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('exercise-tab-fix-state');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="exercise-tab-only-your-child"][aria-selected="true"]');
    // Tab leaves the tab list in one step.
    await page.locator('[data-testid="exercise-tab-only-your-child"]').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('tab');

    // From the top of the page, the skip link comes within a few stops and lands in the exercise.
    await page.focus('header a.brand');
    let stops = 0;
    while (stops < 20 && (await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) !== 'skip-to-exercise') {
      await page.keyboard.press('Tab');
      stops++;
    }
    expect(stops).toBeLessThan(15);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('exercise');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="exercise"]'))).toBe(true);
    await screenshot(page, 'learner-1400-failure-state');
    await close();
  }, 240_000);

  it('items 4, 2: Ctrl+Enter closes the suggestion box; a warning that explains the counterexample is in the grade, with its line', async () => {
    const { page, close } = await open(1400, '#/learn/conditions/add-the-check');
    const starter = await editorText(page, 'lesson-editor');
    // Type "z3." on a new last line: the suggestion box opens; Ctrl+Enter checks and closes it.
    await page.$eval('[data-testid="lesson-editor"]', (el) => {
      const ed = (el as HTMLElement & { monacoEditor: { setPosition(p: object): void; focus(): void; getModel(): { getLineCount(): number } } }).monacoEditor;
      ed.focus();
      ed.setPosition({ lineNumber: ed.getModel().getLineCount(), column: 1 });
    });
    await page.keyboard.type('z3.');
    const suggest = page.locator('.suggest-widget.visible');
    // Once, under npm run test:stress, the box the "." opens did not show within 60 s (cause not found);
    // Ctrl+Space asks for it as a user would, and what is tested is how Ctrl+Enter treats an open box.
    await suggest.waitFor({ timeout: 15_000 }).catch(async () => {
      await page.keyboard.press('Control+Space');
      await suggest.waitFor();
    });
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-testid="lesson-grade"][data-kind="failed"]', { timeout: 120_000 });
    expect(await suggest.count()).toBe(0);

    const answer = starter.replace('PROC_ZOMBIE,\n', 'PROC_ZOMBIE,\n        old.procs[owner].nr_intremaps == 0,\n');
    expect(answer).not.toBe(starter);
    await setEditorText(page, answer, 'lesson-editor');
    await checkAnswer(page, 'failed');
    const warning = page.locator('[data-testid="lesson-grade"] [data-testid="verdict-warning"][data-explains="true"]');
    await warning.waitFor();
    const wline = Number(await warning.getAttribute('data-line'));
    expect(answer.split('\n')[wline - 1]).toContain('nr_intremaps == 0');
    const said = (await warning.textContent())!;
    expect(said).toContain('SPEC201');
    expect(said).toContain('This explains the counterexample');
    await warning.getByRole('button', { name: `line ${wline}` }).click();
    await expect.poll(() => cursor(page)).toEqual({ line: wline, focused: true });
    await warning.scrollIntoViewIfNeeded();
    await screenshot(page, 'learner-1400-warning-explains');
    await close();
  }, 240_000);
});
