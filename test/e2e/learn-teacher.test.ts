/**
 * Teacher links in a real Chromium: a teacher writes an exercise and makes a
 * link; a learner in a fresh browser context opens it, is graded by the real
 * verifier (wrong, then right, including the hidden "refuted on v2" check),
 * downloads the attempt; the teacher imports the file and sees the result,
 * and grades it again. Damaged links and files give clear errors, no crash.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, setEditorText, waitForEditor } from './harness.ts';
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

    // The teacher imports the file, plus a broken one.
    await t.setInputFiles('[data-testid="t-import"]', [
      { name: 'attempt-ada.json', mimeType: 'application/json', buffer: readFileSync(path) },
      { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "something else"}') },
      { name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('not json at all') },
    ]);
    await t.waitForSelector('[data-testid="t-attempt"]');
    expect(await t.locator('[data-testid="t-attempt"]').count()).toBe(1);
    const row = await t.textContent('[data-testid="t-attempt"]');
    expect(row).toContain('Ada');
    expect(row).toContain('Vectors: catch v2');
    expect(await t.textContent('[data-testid="t-attempt-result"]')).toBe('passed');
    const errs = await t.textContent('[data-testid="t-import-errors"]');
    expect(errs).toContain('notes.json: The file is not an OSVLab attempt');
    expect(errs).toContain('junk.json: The file is not JSON');
    await t.click('[data-testid="t-regrade"]');
    await t.waitForSelector('[data-testid="t-regrade-result"]', { timeout: 180_000 });
    expect(await t.textContent('[data-testid="t-regrade-result"]')).toContain('Graded here: passed');
    // Imports are kept.
    await t.reload();
    await t.waitForSelector('[data-testid="t-attempt"]');
    await t.locator('[data-testid="t-attempts"]').scrollIntoViewIfNeeded();
    await screenshot(t, 'learn-teacher-imports');
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
