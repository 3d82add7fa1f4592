/**
 * Learn in a real Chromium: the course lists its lessons, an exercise is
 * graded wrong then right by the real verifier, hints open one at a time, the
 * solution stays locked until an attempt, progress survives a reload, and the
 * pages fit 390 px and 1400 px without sideways scrolling.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageTab, settled } from './driver.ts';
import { editorText, newPage, screenshot, setEditorText, waitForEditor } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();

const FIXED = `import z3
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

/** How far the page scrolls sideways (0 = it fits), and the widest element of the Learn page that sticks out. */
async function overflow(page: Page): Promise<{ doc: number; learn: number; culprit: string }> {
  return page.evaluate(() => {
    const de = document.documentElement;
    const learn = document.querySelector('.learn') as HTMLElement | null;
    const vw = de.clientWidth;
    let culprit = '';
    let worst = vw;
    // Content inside a clipping or scrolling box (the editor, wide tables) cannot widen the page.
    const clipped = (el: Element): boolean => {
      for (let a = el.parentElement; a && a !== learn; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    for (const el of learn ? learn.querySelectorAll('*') : []) {
      if (clipped(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > worst + 0.5) {
        worst = r.right;
        culprit = `${el.tagName.toLowerCase()}.${(el as HTMLElement).className} ${Math.round(r.right)}`;
      }
    }
    return { doc: de.scrollWidth - de.clientWidth, learn: learn ? Math.max(0, Math.round(worst - vw)) : -1, culprit };
  });
}

/** A teacher link's route for a small exercise, encoded in the page as the app does (deflate-raw + base64url). */
async function sharedRoute(page: Page): Promise<string> {
  const payload = await page.evaluate(async () => {
    const ex = {
      v: 1,
      kind: 'osvlab-exercise',
      title: 'A deliberately long title for an exercise that a teacher wrote, to see that it wraps on a phone',
      prompt: 'A_very_long_unbroken_word_that_must_wrap_instead_of_widening_the_page_on_a_narrow_screen_xxxxxxxxxxxxxxxx',
      handler: 'sys_alloc_vector',
      starter: 'def sys_alloc_vector(old, vector):\n    return z3.BoolVal(True), old\n',
      refuteOn: ['sys_alloc_vector-v2'],
      hints: ['one'],
    };
    const json = new TextEncoder().encode(JSON.stringify(ex));
    const out = await new Response(new Blob([json as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer();
    return btoa(String.fromCharCode(...new Uint8Array(out))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  return '#/learn/x/' + payload;
}

describe('learn', () => {
  it('lists at least 12 lessons and each opens with its exercises', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn');
    const links = page.locator('[data-testid^="lesson-link-"]');
    await links.first().waitFor();
    expect(await links.count()).toBeGreaterThanOrEqual(12);
    expect(await page.locator('[data-testid="progress-count"]').textContent()).toMatch(/^0 of (\d+) exercises done$/);
    // The lessons load on demand; open a few across the course.
    for (const id of ['refcnt', 'bug-leak', 'full-spec']) {
      await page.click(`[data-testid="lesson-link-${id}"]`);
      await page.waitForSelector(`[data-testid="lesson"][data-lesson="${id}"]`);
      expect(await page.locator('[data-testid^="exercise-tab-"]').count()).toBeGreaterThanOrEqual(3);
    }
    await waitForEditor(page, 'lesson-editor');
    expect(await editorText(page, 'lesson-editor')).toContain('def sys_alloc_vector(old, vector):');
    expect(errors).toEqual([]);
    await context.close();
    // A bug-class exercise shows what its buggy implementation changes, from
    // the task bundle. In a fresh page the bundle's chunk is held back until
    // the panel shows "Loading…", so the tasks arrive after it rendered
    // (under load they did, and the panel used not to notice).
    const fresh = await newPage(env.browser);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await fresh.page.route(/\/assets\/tasks-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await fresh.page.goto(env.site.url + '#/learn/bug-pointer/kill-flag');
    await fresh.page.click('[data-testid="exercise-variants"] summary');
    const variants = () => fresh.page.textContent('[data-testid="exercise-variants"]');
    await expect.poll(variants).toContain('Loading…');
    release();
    await expect.poll(variants).toContain('use_io_bitmap');
    await fresh.page.locator('[data-testid="exercise-variants"]').scrollIntoViewIfNeeded();
    await screenshot(fresh.page, 'learn-variant-code');
    expect(fresh.errors).toEqual([]);
    await fresh.context.close();
  });

  it('grades an exercise wrong then right, opens hints one at a time, unlocks the solution after an attempt, and keeps progress across a reload', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn/state-machines/fix-state');
    await waitForEditor(page, 'lesson-editor');
    const solution = page.locator('[data-testid="lesson-solution"]');
    expect(await solution.isDisabled()).toBe(true);

    // Hints: one per click, in order.
    const hints = page.locator('[data-testid="lesson-hints"] li');
    expect(await hints.count()).toBe(0);
    await page.click('[data-testid="lesson-hint"]');
    await expect.poll(() => hints.count()).toBe(1);
    await page.click('[data-testid="lesson-hint"]');
    await expect.poll(() => hints.count()).toBe(2);
    expect(await hints.nth(1).textContent()).toContain('dt.proc_state');

    // The starter is wrong: the verifier refutes it.
    await page.click('[data-testid="lesson-check"]');
    await page.waitForSelector('[data-testid="lesson-grade"][data-kind="failed"]', { timeout: 120_000 });
    expect(await page.locator('[data-testid="lesson-grade"]').textContent()).toContain('procs.state');
    // One attempt: the solution opens.
    expect(await solution.isDisabled()).toBe(false);
    await solution.click();
    expect(await page.locator('[data-testid="lesson-solution-text"]').textContent()).toContain('PROC_RUNNABLE');
    await page.locator('[data-testid="lesson-check"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'learn-exercise-graded');

    await setEditorText(page, FIXED, 'lesson-editor');
    await page.click('[data-testid="lesson-check"]');
    await page.waitForSelector('[data-testid="lesson-grade"][data-kind="passed"]', { timeout: 120_000 });
    await expect.poll(() => page.locator('[data-testid="progress-count"]').textContent()).toMatch(/^1 of/);
    expect(await page.locator('[data-testid="lesson-link-state-machines"] .count').textContent()).toBe('1/3');

    await page.reload();
    await waitForEditor(page, 'lesson-editor');
    await expect.poll(() => page.locator('[data-testid="progress-count"]').textContent()).toMatch(/^1 of/);
    expect(await editorText(page, 'lesson-editor')).toBe(FIXED);
    expect(await page.locator('[data-testid="exercise-tab-fix-state"]').textContent()).toContain('✓');
    // Hints opened and the attempt are remembered: two hints still shown, the solution still unlocked.
    expect(await hints.count()).toBe(2);
    expect(await solution.isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);

  it('grades a read-the-counterexample exercise by the field the verifier names', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn/kernel-state/which-field');
    await page.waitForSelector('[data-testid="exercise"][data-kind="field"]');
    await page.click('[data-testid="lesson-run"]');
    await page.waitForSelector('[data-testid="lesson-run-result"]', { timeout: 120_000 });
    await page.check('[data-testid="choice-vectors.owner"]');
    await page.click('[data-testid="lesson-check"]');
    await page.waitForSelector('[data-testid="lesson-grade"][data-kind="failed"]', { timeout: 120_000 });
    await page.check('[data-testid="choice-procs.nr_vectors"]');
    await page.click('[data-testid="lesson-check"]');
    await page.waitForSelector('[data-testid="lesson-grade"][data-kind="passed"]', { timeout: 120_000 });
    await context.close();
  }, 300_000);

  it('fits 390 px and 1400 px without sideways scrolling (lesson list, a lesson, the teacher view)', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/learn');
    const shared = await sharedRoute(page);
    const SELECTOR = { learn: 'lesson', lesson: 'lesson', field: 'lesson', teacher: 'teacher-view', shared: 'shared-exercise', error: 'learn-error' };
    for (const width of [390, 1400]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [route, name] of [
        ['#/learn', 'learn'],
        ['#/learn/refinement/describe-the-bug', 'lesson'],
        ['#/learn/bug-pointer/wrong-field', 'field'],
        ['#/learn/teacher', 'teacher'],
        [shared, 'shared'],
        ['#/learn/x/broken', 'error'],
      ] as const) {
        await page.goto(env.site.url + route);
        await page.waitForSelector(`[data-testid="${SELECTOR[name]}"]`);
        if (name === 'learn' || name === 'lesson' || name === 'shared') await waitForEditor(page, 'lesson-editor');
        if (name === 'field') await waitForEditor(page, 'lesson-spec');
        await settled(pageTab(page));
        const o = await overflow(page);
        // The Learn page's own content never sticks out; the whole document does not either
        // once the app shell fits (the header is not part of this page).
        expect(o.learn, `${name} at ${width}px: ${o.culprit}`).toBe(0);
        await screenshot(page, `learn-${name}-${width}`);
        if (name === 'lesson') {
          await page.locator('[data-testid="exercise"]').scrollIntoViewIfNeeded();
          await screenshot(page, `learn-exercise-${width}`);
        }
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
