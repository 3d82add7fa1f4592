/**
 * Compare in a lesson exercise, in Chromium: before the solution opens the
 * reference is hidden, so comparing the starter with it says only that they
 * differ, as a next-step hint (no state table, nothing of the reference's
 * text); a fixed answer compared with it has the same meaning.
 */
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, setEditorText, waitForEditor } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();

const FIXED = `def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].ppid == old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE
    return cond, util.If(cond, new, old)
`;

describe('Compare in a lesson', () => {
  it('a hidden reference: only whether they differ, never its text or a state', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn/state-machines/fix-state');
    await waitForEditor(page, 'lesson-editor');
    const result = page.locator('[data-testid="exercise"] [data-testid="compare-result"]');
    await page.locator('[data-testid="exercise"] [data-testid="compare"] summary').click();
    await page.click('[data-testid="exercise"] [data-testid="compare-run"]');
    await page.waitForSelector('[data-testid="exercise"] [data-testid="compare-result"][data-kind="done"]', { timeout: 120_000 });
    expect(await result.getAttribute('data-status')).toBe('different');
    const said = (await result.textContent()) ?? '';
    expect(said).toContain('Not yet');
    expect(said).toContain('Check your answer');
    // Nothing of the reference: no table, no field, no value, no line of its text.
    expect(await page.locator('[data-testid="compare-table"]').count()).toBe(0);
    for (const leak of ['PROC_RUNNABLE', 'procs.state', 'Arguments', 'def sys_set_runnable', 'util.If']) expect(said).not.toContain(leak);
    expect(await page.locator('[data-testid="lesson-solution-text"]').count()).toBe(0);
    for (const width of [1400, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator('[data-testid="exercise"] [data-testid="compare"]').scrollIntoViewIfNeeded();
      await screenshot(page, `lesson-compare-hidden-${width}`);
    }

    await setEditorText(page, FIXED, 'lesson-editor');
    await page.click('[data-testid="exercise"] [data-testid="compare-run"]');
    await page.waitForSelector('[data-testid="exercise"] [data-testid="compare-result"][data-status="equivalent"]', { timeout: 120_000 });
    expect(await result.textContent()).toContain('Same meaning');
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
