/** Learn in a real Chromium: lessons render, an exercise is graded by the verifier, progress survives a reload. */
import { describe, expect, it } from 'vitest';
import { editorText, newPage, screenshot, setEditorText, waitForEditor } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();

const ANSWER_1 = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].ppid == old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE
    return cond, util.If(cond, new, old)
`;

describe('learn', () => {
  it('lists five lessons and opens each with its exercise', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn');
    const links = page.locator('[data-testid^="lesson-link-"]');
    await links.first().waitFor();
    expect(await links.count()).toBeGreaterThanOrEqual(5);
    await page.click('[data-testid="lesson-link-refcounts-and-ghost-state"]');
    await waitForEditor(page, 'lesson-editor');
    expect(await editorText(page, 'lesson-editor')).toContain('def sys_reclaim_port(old, port):');
    await screenshot(page, 'learn-lesson');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the answer being written across a reload', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn/conditions-and-if');
    await waitForEditor(page, 'lesson-editor');
    const text = (await editorText(page, 'lesson-editor')) + '# my notes\n';
    await setEditorText(page, text, 'lesson-editor');
    await page.waitForTimeout(800);
    await page.reload();
    await waitForEditor(page, 'lesson-editor');
    expect(await editorText(page, 'lesson-editor')).toBe(text);
    await context.close();
  });

  it('grades a lesson exercise in the browser and records the progress', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn/reading-a-spec');
    await waitForEditor(page, 'lesson-editor');
    // The starter has a wrong line: it must fail first.
    await page.click('[data-testid="lesson-check"]');
    await page.waitForSelector('[data-testid="lesson-grade"][data-kind="failed"]', { timeout: 90_000 });
    await setEditorText(page, ANSWER_1, 'lesson-editor');
    await page.click('[data-testid="lesson-check"]');
    await page.waitForSelector('[data-testid="lesson-grade"][data-kind="passed"]', { timeout: 90_000 });
    await expect.poll(() => page.locator('[data-testid="progress-count"]').textContent()).toContain('1 of');
    await page.reload();
    await expect.poll(() => page.locator('[data-testid="progress-count"]').textContent()).toContain('1 of');
    await context.close();
  }, 300_000);
});
