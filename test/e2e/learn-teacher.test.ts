/**
 * Teacher links in a real Chromium: a teacher writes an exercise and makes a
 * link; a learner in a fresh browser context opens it, is graded by the real
 * verifier (wrong, then right, including the hidden "refuted on v2" check),
 * downloads the attempt, and again after a reload; the teacher imports the
 * file with a forged one, sees this page's grades (never the files' claims),
 * grades again, and after a reload still has the link and a table that fits
 * a phone. Damaged links and files give clear errors, no crash.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, setEditorText, waitForEditor } from './harness.ts';
import { sticksOut } from './fit.ts';
import { useSite } from './setup.ts';
import { ALLOC_VECTOR_ANSWER } from './teacher-answer.ts';

const env = useSite();

const ANSWER = ALLOC_VECTOR_ANSWER;

describe('learn: teacher links', () => {
  it('round trip: write, link, open in a fresh context, attempt, export, import, grade again', async () => {
    const teacher = await newPage(env.browser);
    const t = teacher.page;
    await t.goto(env.site.url + '#/learn/teacher');
    await t.waitForSelector('[data-testid="teacher-view"]');
    await t.fill('[data-testid="t-title"]', 'Vectors: catch v2');
    await t.fill('[data-testid="t-prompt"]', 'Write sys_alloc_vector.\nIt must catch a kernel that hands out taken vectors.');
    // The example draft checks v2; hide the checks from the learner.
    await t.waitForSelector('[data-testid="t-refute-sys_alloc_vector-v2"]');
    expect(await t.isChecked('[data-testid="t-refute-sys_alloc_vector-v2"]')).toBe(true);
    await t.check('[data-testid="t-hide"]');
    await t.fill('[data-testid="t-hints"]', 'First hint: is the vector free?\nSecond hint: count it for the caller.');
    await t.click('[data-testid="t-make-link"]');
    const link = await t.inputValue('[data-testid="t-link"]');
    expect(link).toContain('#/learn/x/');
    await screenshot(t, 'learn-teacher-link');

    // The learner: a fresh context, nothing shared with the teacher's.
    const learner = await newPage(env.browser);
    const l = learner.page;
    await l.goto(link);
    await l.waitForSelector('[data-testid="shared-exercise"]');
    expect(await l.textContent('#shared-title')).toBe('Vectors: catch v2');
    expect(await l.textContent('[data-testid="exercise-prompt"]')).toContain('hands out taken vectors');
    // Hidden checks are not named.
    const checks = await l.textContent('[data-testid="exercise-checks"]');
    expect(checks).toContain('Hidden check 1');
    expect(checks).not.toContain('v2');
    await waitForEditor(l, 'lesson-editor');
    expect(await l.isDisabled('[data-testid="export-attempt"]')).toBe(true);
    await l.click('[data-testid="lesson-hint"]');
    expect(await l.locator('[data-testid="lesson-hints"] li').count()).toBe(1);

    // The starter (cond True, no effects) is wrong.
    await l.click('[data-testid="lesson-check"]');
    await l.waitForSelector('[data-testid="lesson-grade"][data-kind="failed"]', { timeout: 120_000 });
    await setEditorText(l, ANSWER, 'lesson-editor');
    await l.click('[data-testid="lesson-check"]');
    await l.waitForSelector('[data-testid="lesson-grade"][data-kind="passed"]', { timeout: 180_000 });
    expect(await l.textContent('[data-testid="lesson-check-results"]')).toContain('Hidden check 1');
    await l.fill('[data-testid="learner-name"]', 'Ada');
    const [download] = await Promise.all([l.waitForEvent('download'), l.click('[data-testid="export-attempt"]')]);
    const path = await download.path();
    const file = JSON.parse(readFileSync(path, 'utf8'));
    expect(file.format).toBe('osvlab-attempt');
    expect(file.passed).toBe(true);
    expect(file.learner).toBe('Ada');
    expect(file.answer).toBe(ANSWER);
    await screenshot(l, 'learn-shared-exercise');

    // The attempt survives a reload in the learner's browser.
    await l.reload();
    await l.waitForSelector('[data-testid="shared-exercise"]');
    await l.waitForSelector('[data-testid="lesson-grade"]');
    await expect.poll(() => l.textContent('[data-testid="lesson-grade"]')).toContain('passed this exercise before');
    // Issue 37 item 3: the passed attempt can still be handed in after the reload, and it is the graded answer.
    await waitForEditor(l, 'lesson-editor');
    await setEditorText(l, ANSWER.replace('+= 1', '+= 2'), 'lesson-editor');
    expect(await l.textContent('[data-testid="export-note"]')).toContain('not the edits since');
    const [again] = await Promise.all([l.waitForEvent('download'), l.click('[data-testid="export-attempt"]')]);
    expect(JSON.parse(readFileSync((await again.path())!, 'utf8'))).toMatchObject({ passed: true, answer: ANSWER, learner: 'Ada' });

    // The teacher imports the file, one forged to claim a pass for the starter, and two broken ones.
    const starter = await t.evaluate(() => (document.querySelector('[data-testid="t-starter"]') as HTMLElement & { monacoEditor: { getValue(): string } }).monacoEditor.getValue());
    const forged = { ...file, learner: 'Eve', answer: starter, passed: true, message: 'Passed: every check holds.' };
    await t.setInputFiles('[data-testid="t-import"]', [
      { name: 'attempt-ada.json', mimeType: 'application/json', buffer: readFileSync(path) },
      { name: 'attempt-eve.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(forged)) },
      { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "something else"}') },
      { name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('not json at all') },
    ]);
    await t.waitForSelector('[data-testid="t-attempt"]');
    expect(await t.locator('[data-testid="t-attempt"]').count()).toBe(2);
    const row = (name: string) => t.locator('[data-testid="t-attempt"]', { has: t.getByRole('rowheader', { name, exact: true }) });
    const ada = row('Ada');
    const eve = row('Eve');
    expect(await ada.textContent()).toContain('Vectors: catch v2');
    const errs = await t.textContent('[data-testid="t-import-errors"]');
    expect(errs).toContain('notes.json: The file is not an OSVLab attempt');
    expect(errs).toContain('junk.json: The file is not JSON');
    // Issue 37 item 1: graded on import; the result shown is this page's grade, the forged claim is marked as one that did not hold.
    expect(await eve.locator('.ok').count()).toBe(0);
    await eve.locator('[data-testid="t-regrade-result"]').waitFor({ timeout: 180_000 });
    expect(await eve.locator('[data-testid="t-regrade-result"]').textContent()).toBe('Graded here: not passed');
    expect(await eve.locator('[data-testid="t-attempt-claim"]').getAttribute('data-held')).toBe('false');
    expect(await eve.locator('[data-testid="t-attempt-claim"]').textContent()).toContain('a claim that did not hold');
    expect(await eve.locator('.ok').count()).toBe(0);
    await ada.locator('[data-testid="t-regrade-result"]').waitFor({ timeout: 180_000 });
    expect(await ada.locator('[data-testid="t-regrade-result"]').textContent()).toBe('Graded here: passed');
    expect(await ada.locator('[data-testid="t-attempt-claim"]').getAttribute('data-held')).toBe('true');
    await ada.locator('[data-testid="t-regrade"]').click();
    await expect.poll(() => ada.locator('[data-testid="t-regrade"]').textContent(), { timeout: 180_000 }).toBe('Grade again');
    expect(await ada.locator('[data-testid="t-regrade-result"]').textContent()).toContain('Graded here: passed');
    await t.locator('[data-testid="t-attempts"]').scrollIntoViewIfNeeded();
    await screenshot(t, 'teacher-1400-forged-claim');
    // Imports and their grades are kept; issue 37 item 9: so is the link made from the unchanged draft.
    await t.reload();
    await t.waitForSelector('[data-testid="t-attempt"]');
    expect(await t.inputValue('[data-testid="t-link"]')).toBe(link);
    expect(await eve.locator('[data-testid="t-regrade-result"]').textContent()).toBe('Graded here: not passed');
    // An edit of the draft drops the link: it no longer describes the exercise.
    await t.fill('[data-testid="t-hints"]', 'Only one hint now.');
    expect(await t.locator('[data-testid="t-link"]').count()).toBe(0);
    await t.reload();
    await t.waitForSelector('[data-testid="t-attempt"]');
    expect(await t.locator('[data-testid="t-link"]').count()).toBe(0);
    await t.locator('[data-testid="t-attempts"]').scrollIntoViewIfNeeded();
    await screenshot(t, 'learn-teacher-imports');
    // Issue 37 item 10: on a phone every attempt's buttons are on screen.
    await t.setViewportSize({ width: 390, height: 844 });
    await t.locator('[data-testid="t-attempts"]').scrollIntoViewIfNeeded();
    for (const b of await t.locator('[data-testid="t-regrade"], [data-testid="t-remove"]').all()) {
      const box = (await b.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.x).toBeGreaterThanOrEqual(0);
    }
    expect(await sticksOut(t, '[data-testid="t-attempts"]')).toEqual([]);
    await eve.scrollIntoViewIfNeeded();
    await screenshot(t, 'teacher-390-attempts');
    expect(teacher.errors).toEqual([]);
    expect(learner.errors).toEqual([]);
    await learner.context.close();
    await teacher.context.close();
  }, 600_000);

  it('a damaged or foreign link shows a clear error and nothing crashes', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn/x/not-a-real-payload');
    await page.waitForSelector('[data-testid="learn-error"]');
    expect(await page.getAttribute('[data-testid="learn-error"]', 'data-code')).toBe('link-damaged');
    expect(await page.textContent('[data-testid="learn-error"]')).toContain('damaged');
    // A well-formed link whose exercise names an unknown handler.
    const payload = await page.evaluate(async () => {
      const json = new TextEncoder().encode(JSON.stringify({ v: 1, kind: 'osvlab-exercise', handler: 'sys_nope', starter: 'x' }));
      const out = await new Response(new Blob([json as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer();
      return btoa(String.fromCharCode(...new Uint8Array(out))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    });
    await page.goto(env.site.url + '#/learn/x/' + payload);
    await expect.poll(() => page.getAttribute('[data-testid="learn-error"]', 'data-code')).toBe('field');
    expect(await page.textContent('[data-testid="learn-error"]')).toContain('unknown handler');
    // The course still works after that.
    await page.click('[data-testid="lesson-link-refcnt"]');
    await page.waitForSelector('[data-testid="lesson"][data-lesson="refcnt"]');
    expect(errors).toEqual([]);
    await context.close();
  });
});
