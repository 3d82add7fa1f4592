/**
 * The playground's rough edges (issue: what a learner and a researcher hit),
 * in a real Chromium with the real verifier: Ctrl+Enter after other editors
 * appear, what a failed condition says, where the spec-line link points,
 * what stays in view after a verdict, Reset, a damaged share link, an unknown
 * route, the theme toggle, and the counterexample table on a phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, editorText, screenshot, setEditorText, waitForEditor } from './harness.ts';
import { launchEngine, pageTab, settled } from './driver.ts';
import { sticksOut } from './fit.ts';
import { useSite } from './setup.ts';
import { shareFragment } from './share-link.ts';

const env = useSite();

const HEAD = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt

def sys_set_runnable(old, pid):
`;
/** Misses is_pid_valid: only the condition fails, for an out-of-range pid. */
const NO_PID_CHECK = `${HEAD}    cond = z3.And(
        old.procs[pid].ppid == old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE
    return cond, util.If(cond, new, old)
`;
/** Never writes the new state: procs.state fails. */
const NO_WRITE = `${HEAD}    cond = z3.And(
        old.procs[pid].ppid == old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
        pid > 0, pid < 64,
    )
    new = old.copy()

    return cond, util.If(cond, new, old)
`;
/** Writes the wrong state: a row that differs. */
const WRONG_STATE = NO_PID_CHECK.replace('PROC_RUNNABLE', 'PROC_RUNNING').replace('    cond = z3.And(\n', '    cond = z3.And(\n        pid > 0, pid < 64,\n');

const lineOf = (text: string, re: RegExp) => text.split('\n').findIndex((l) => re.test(l)) + 1;

async function open(width: number, route = '#/play'): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await env.browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } });
  const page = await context.newPage();
  await page.goto(env.site.url + route);
  return { page, close: () => context.close() };
}

async function pick(page: Page, handler: string): Promise<void> {
  await waitForEditor(page);
  await page.selectOption('[data-testid="handler"]', handler);
  await waitForEditor(page);
  await expect.poll(() => page.locator('[data-testid="variant"] option').count()).toBeGreaterThan(1);
}

/** Waits for verdict number `n` of this page. */
async function verdict(page: Page, n: number): Promise<void> {
  await page.waitForSelector(`[data-testid="results"][data-runs="${n}"] [data-testid="verdict"]`, { timeout: 120_000 });
}

describe('playground', () => {
  // One page for the first four tests, in order: each goes on from the verdict the one before left.
  let shared: { page: Page; close(): Promise<void> };
  const page = () => shared.page;
  afterAll(() => shared?.close());

  it('items 3-4: when only the condition fails, a sentence with the arguments and the errno by name, not an empty table', async () => {
    shared = await open(1400);
    await pick(page(), 'sys_set_runnable');
    await setEditorText(page(), NO_PID_CHECK);
    await page().click('[data-testid="verify"]');
    await verdict(page(), 1);
    expect(await page().getAttribute('[data-testid="verdict"]', 'data-status')).toBe('refuted');
    expect(await page().locator('[data-testid="counterexample"] table').count()).toBe(0);
    const why = (await page().locator('[data-testid="cex-condition"]').textContent())!;
    expect(why).toMatch(/With pid=\d+, the spec's condition is True/);
    expect(why).toContain('-ESRCH');
    expect(await page().textContent('[data-testid="counterexample"]')).toContain('implementation returned -ESRCH (-3)');
    await screenshot(page(), 'edges-1400-condition');
  }, 180_000);

  it('item 9: the spec-line link points at the condition for a missing conjunct, after the last write for a missing one', async () => {
    const link = page().locator('[data-testid="cex-line"]');
    expect(await link.getAttribute('data-kind')).toBe('condition');
    expect(Number(await link.getAttribute('data-line'))).toBe(lineOf(NO_PID_CHECK, /cond = z3\.And\(/));
    await setEditorText(page(), NO_WRITE);
    await page().click('[data-testid="verify"]');
    await verdict(page(), 2);
    expect(await link.getAttribute('data-kind')).toBe('missing-write');
    expect(Number(await link.getAttribute('data-line'))).toBe(lineOf(NO_WRITE, /new = old\.copy\(\)/));
    expect(await link.textContent()).toContain('procs.state');
  }, 180_000);

  it('item 10: after a verdict "Your spec" and Reset stay on screen, and "Link copied" keeps the toolbar on one row', async () => {
    // The column has scrolled the verdict into view (smoothly); Reset is still where a click lands.
    await settled(pageTab(page()));
    const reset = page().getByRole('button', { name: 'Reset', exact: true });
    const box = (await reset.boundingBox())!;
    const hit = await page().evaluate(([x, y]) => document.elementFromPoint(x, y)?.textContent?.trim(), [box.x + box.width / 2, box.y + box.height / 2]);
    expect(hit).toBe('Reset');
    await page().click('[data-testid="copy-link"]');
    await expect.poll(() => page().locator('.toolbar').textContent()).toContain('Link copied');
    const [handler, copy] = await Promise.all([page().locator('[data-testid="handler"]').boundingBox(), page().locator('[data-testid="copy-link"]').boundingBox()]);
    expect(Math.abs(handler!.y + handler!.height / 2 - (copy!.y + copy!.height / 2))).toBeLessThan(6);
  });

  it("item 7: Ctrl+Enter still verifies after the implementation changes, the bug is revealed and the reference shown", async () => {
    await page().selectOption('[data-testid="variant"]', { index: 1 });
    await page().click('[data-testid="reveal-bug"]');
    await page().selectOption('[data-testid="variant"]', { index: 0 });
    await page().check('[data-testid="show-reference"]');
    await waitForEditor(page(), 'reference');
    await page().click('[data-testid="spec-editor"] .view-lines');
    await page().keyboard.press('Control+Enter');
    await verdict(page(), 3);
  }, 180_000);

  it('item 5: Reset asks first, and Ctrl+Z brings the draft back', async () => {
    const { page, close } = await open(1400);
    await pick(page, 'sys_set_runnable');
    await setEditorText(page, NO_WRITE);
    await page.click('[data-testid="reset"]');
    await page.waitForSelector('[data-testid="reset-confirm"]');
    expect(await editorText(page)).toBe(NO_WRITE);
    await page.click('[data-testid="reset-yes"]');
    await expect.poll(() => editorText(page)).not.toBe(NO_WRITE);
    expect(await editorText(page)).toContain('def sys_set_runnable(old, pid):');
    await page.click('[data-testid="spec-editor"] .view-lines');
    await page.keyboard.press('Control+z');
    await expect.poll(() => editorText(page)).toBe(NO_WRITE);
    await close();
  });

  it("item 1: on a phone the counterexample's columns stay on screen", async () => {
    const { page, close } = await open(390);
    await pick(page, 'sys_set_runnable');
    await setEditorText(page, WRONG_STATE);
    await page.click('[data-testid="verify"]');
    await verdict(page, 1);
    await page.locator('[data-testid="cex-table"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'edges-390-counterexample');
    const labels = await page.locator('[data-testid="cex-table"] td').evaluateAll((tds) =>
      tds.map((td) => ({ label: td.getAttribute('data-label'), right: Math.round(td.getBoundingClientRect().right) })),
    );
    expect(labels.map((l) => l.label)).toEqual(expect.arrayContaining(["Spec's new", "Implementation's new"]));
    for (const l of labels) expect(l.right, String(l.label)).toBeLessThanOrEqual(390);
    expect(await sticksOut(page, '[data-testid="verdict"]')).toEqual([]);
    await close();
  });

  it('issue 37 items 14, 19: on a phone the variant matrix keeps every column on screen, marks each verdict by what a good spec gives there, and has a legend', async () => {
    const { page, close } = await open(390);
    await pick(page, 'sys_set_runnable');
    // Never writes the new state: refuted on the correct implementation, so its refutations on buggy ones catch nothing.
    await setEditorText(page, NO_WRITE);
    await page.click('[data-testid="run-matrix"]');
    const matrix = page.locator('[data-testid="matrix"]');
    await expect.poll(() => page.locator('[data-testid="run-matrix"]').isDisabled(), { timeout: 180_000 }).toBe(false);
    const rows = await matrix.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({ label: tr.querySelector('th')!.textContent!, mine: tr.querySelectorAll('td')[0].getAttribute('data-meaning'), ref: tr.querySelectorAll('td')[1].getAttribute('data-meaning') })),
    );
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0]).toEqual({ label: 'correct', mine: 'unexpected', ref: 'expected' });
    for (const r of rows.slice(1)) expect(r, r.label).toMatchObject({ mine: 'moot', ref: 'expected' });
    expect(await page.locator('[data-testid="matrix-legend"]').textContent()).toContain('catches nothing');
    await matrix.scrollIntoViewIfNeeded();
    await screenshot(page, 'edges-390-matrix');
    for (const cell of await matrix.locator('th, td').all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width, (await cell.textContent()) ?? '').toBeLessThanOrEqual(390);
    }
    expect(await sticksOut(page, '[data-testid="results"]')).toEqual([]);
    await close();
  }, 240_000);

  // Thirty lines of notes first, so the blamed write (the wrong state) is far down the spec.
  const FAR_SPEC = WRONG_STATE.replace('def sys_set_runnable', `${Array.from({ length: 30 }, (_, i) => `# note ${i + 1}`).join('\n')}\n\ndef sys_set_runnable`);
  const FAR_LINK = shareFragment({ handler: 'sys_set_runnable', spec: FAR_SPEC });
  /** In the page (any engine's): are the shared verdict's summary and spec line `line` (inside the editor's box) both on screen? */
  const bothInView = (line: number): boolean => {
    const host = document.querySelector('[data-testid="spec-editor"]') as (HTMLElement & { monacoEditor?: { getTopForLineNumber(n: number): number; getScrollTop(): number } }) | null;
    const summary = document.querySelector('[data-testid="shared-verdict"]');
    if (!host?.monacoEditor || !summary) return false;
    const box = host.getBoundingClientRect();
    const y = box.top + host.monacoEditor.getTopForLineNumber(line) - host.monacoEditor.getScrollTop();
    const s = summary.getBoundingClientRect();
    return y >= Math.max(0, box.top) && y + 19 <= Math.min(innerHeight, box.bottom) && s.top >= 0 && s.bottom <= innerHeight;
  };

  it('issue 37 item 20: a shared verdict opens with the verdict and the blamed line both in view, at 1400 px and on a phone', async () => {
    const spec = FAR_SPEC;
    const blamed = lineOf(spec, /PROC_RUNNING/);
    expect(blamed).toBeGreaterThan(35);
    for (const width of [1400, 390]) {
      const { page, close } = await open(width, FAR_LINK);
      const summary = page.locator('[data-testid="shared-verdict"]');
      await summary.waitFor({ timeout: 120_000 });
      expect(await summary.getAttribute('data-status')).toBe('refuted');
      expect(await page.locator('[data-testid="shared-line"]').textContent()).toBe(`spec line ${blamed}`);
      // Both on screen as the page opens: the summary, and the blamed line inside the editor.
      await expect.poll(() => page.evaluate(bothInView, blamed)).toBe(true);
      // The editor has not taken the focus (a phone would open its keyboard over the page).
      expect(await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'))).toBe(false);
      await screenshot(page, `edges-${width}-shared-verdict`);
      // The counterexample is one tap away.
      await page.click('[data-testid="shared-read-verdict"]');
      await expect.poll(() => page.locator('[data-testid="counterexample"]').evaluate((el) => el.getBoundingClientRect().top < innerHeight && el.getBoundingClientRect().bottom > 0)).toBe(true);
      await close();
    }
  }, 240_000);

  it('issue 37 item 20, Firefox: the same shared verdict opens with the verdict and the blamed line both in view, at 1400 px and on a phone', async () => {
    const blamed = lineOf(FAR_SPEC, /PROC_RUNNING/);
    const firefox = await launchEngine('firefox');
    try {
      for (const width of [1400, 390]) {
        const tab = await firefox.open(width, width < 500 ? 844 : 900);
        await tab.goto(env.site.url + FAR_LINK);
        await tab.waitFor('the shared verdict', () => document.querySelector('[data-testid="shared-verdict"]')?.getAttribute('data-status'), 180_000);
        expect(await tab.eval(() => document.querySelector('[data-testid="shared-verdict"]')!.getAttribute('data-status'))).toBe('refuted');
        expect(await tab.eval(() => document.querySelector('[data-testid="shared-line"]')?.textContent)).toBe(`spec line ${blamed}`);
        await tab.waitFor(`spec line ${blamed} and the verdict in view`, bothInView, undefined, blamed);
        expect(await tab.eval(() => !!document.activeElement?.closest('.monaco-editor'))).toBe(false);
        await tab.screenshot(`${ARTIFACTS}/edges-firefox-${width}-shared-verdict.png`);
        // The counterexample is one tap away.
        await tab.click('[data-testid="shared-read-verdict"]');
        await tab.waitFor('the counterexample in view', () => {
          const r = document.querySelector('[data-testid="counterexample"]')?.getBoundingClientRect();
          return !!r && r.top < innerHeight && r.bottom > 0;
        });
        expect(tab.errors).toEqual([]);
        await tab.close();
      }
    } finally {
      await firefox.close();
    }
  }, 300_000);

  it('item 8: a damaged share link says so and leaves a working playground', async () => {
    const { page, close } = await open(1400, '#/s/AAAAbroken-payload');
    await page.waitForSelector('[data-testid="share-error"]');
    expect(await page.textContent('[data-testid="share-error"]')).toContain('damaged');
    await waitForEditor(page);
    await expect.poll(() => page.locator('[data-testid="variant"] option').count()).toBeGreaterThan(1);
    expect(await editorText(page)).toMatch(/def \w+\(old/);
    await page.click('[data-testid="verify"]');
    await verdict(page, 1);
    expect(await page.getAttribute('[data-testid="verdict"]', 'data-status')).not.toBe('spec-error');
    await close();
  });

  it('issue 57 item 4: a link of 1.5 KB that inflates to 1 MiB, and one to 20 MiB, are refused at once with LINK001; the tab stays responsive', async () => {
    for (const size of [1 << 20, 20 << 20]) {
      const route = shareFragment({ handler: 'sys_dup', spec: 'a'.repeat(size) });
      if (size === 1 << 20) expect(route.length).toBeLessThan(1600);
      const t0 = Date.now();
      const { page, close } = await open(1400, route);
      await page.waitForSelector('[data-testid="share-error"]', { timeout: 30_000 });
      const text = await page.textContent('[data-testid="share-error"]');
      expect(text).toContain('LINK001');
      expect(text).toContain('KB once unpacked');
      expect(text).not.toContain('cut short');
      // The main thread answers at once, and the playground works.
      const t1 = Date.now();
      await page.evaluate(() => 1);
      expect(Date.now() - t1).toBeLessThan(2000);
      expect(Date.now() - t0, `${size} bytes`).toBeLessThan(20_000);
      await waitForEditor(page);
      expect(await editorText(page)).toMatch(/def \w+\(old/);
      await close();
    }
  });

  it('items 10, 19: an unknown route says there is no such page; the theme toggle is labelled and its first click changes the theme', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(env.site.url + '#/no-such-route');
    await page.waitForSelector('[data-testid="no-such-page"]');
    expect(await page.textContent('[data-testid="no-such-page"]')).toContain('#/no-such-route');
    expect(await page.locator('[data-testid="spec-editor"]').count()).toBe(0);
    const toggle = page.locator('header button', { hasText: 'Theme' });
    expect(await toggle.textContent()).toContain('Theme: System');
    await toggle.click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await toggle.click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await toggle.click();
    await expect.poll(() => toggle.textContent()).toContain('Theme: System');
    await context.close();
  });
});
