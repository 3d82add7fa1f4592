/**
 * A share link opened cold holds still while it loads (issue 55 item 6), in a
 * real Chromium against the built site, with Z3's wasm held back so the
 * link's own check is certainly still waiting when the page is measured:
 * the toolbar offers no Cancel or "Re-verify" there and does not move when
 * the verdict comes; the plain-text C panel opens at the system call, not at
 * the file's first line; and at 390 px no loading note covers the spec's
 * first line. (The toolbar is sampled in Firefox and WebKitGTK too, in
 * test/e2e/smoke.ts.)
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { screenshot } from './harness.ts';
import { useSite } from './setup.ts';
import { shareFragment } from './share-link.ts';

const env = useSite();
const HANDLER = 'sys_map_pcipage';
// Refuted, and only by the solver, so the verdict waits for Z3: a spec that needs no query, or that a reachable state
// refutes by running (docs/design.md §3), is answered before the wasm arrives. This one drops the entry index's bound,
// which no state of the bank shows (test/pool/solver-free.test.ts checks that it takes a query).
const WRONG = oracleSpec(HANDLER)!.replace('        z3.ULT(index, 512),\n', '');

/** A fresh page at `width` whose requests for Z3's wasm wait until `release()`. */
async function heldPage(width: number, height: number): Promise<{ page: Page; release(): void; close(): Promise<void> }> {
  const context = await env.browser.newContext({ viewport: { width, height }, serviceWorkers: 'block' });
  const page = await context.newPage();
  let release = () => undefined as void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/z3-built[\w-]*\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  return { page, release, close: () => context.close() };
}

/** Each toolbar control's test id and position. */
const toolbar = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll('[role="toolbar"] button, [role="toolbar"] select')].map((el) => {
    const r = el.getBoundingClientRect();
    return { id: (el as HTMLElement).dataset.testid, left: Math.round(r.left), top: Math.round(r.top) };
  }));

describe('a share link opened cold', () => {
  it('keeps its toolbar still, offers no Re-verify, and opens the C panel at the system call (1400 px)', async () => {
    const { page, release, close } = await heldPage(1400, 900);
    await page.goto(env.site.url + shareFragment({ handler: HANDLER, spec: WRONG }));
    await page.waitForSelector('[data-testid="progress"]');
    const waiting = await toolbar(page);
    expect(waiting.map((c) => c.id)).toEqual(['handler', 'variant', 'timeout', 'verify', 'copy-link']);
    expect(await page.locator('[role="toolbar"]').textContent()).not.toContain('Re-verify');
    // The C panel's plain text shows the system call's definition (19 px lines), not the file's first lines:
    // at first the handler's own text from the kernel sources (no scroll needed), then, once the tasks are in
    // (on a loaded machine after the progress line), the variant's whole file opened at the definition.
    const shown = () =>
      page.locator('[data-testid="c-code-plain"]').evaluate((el) => {
        const first = Math.floor(el.scrollTop / 19);
        const text = el.textContent ?? '';
        return { scrollTop: el.scrollTop, lines: text.split('\n').slice(first, Math.floor((el.scrollTop + el.clientHeight) / 19)) };
      });
    const defined = (lines: string[]) => lines.some((l) => l.startsWith('int ') && l.includes(`${HANDLER}(`));
    const early = await shown();
    expect(defined(early.lines), early.lines.join('\n')).toBe(true);
    await page.waitForFunction(() => (document.querySelector('[data-testid="c-code-plain"]')?.textContent ?? '').includes('#define'));
    const whole = await shown();
    await screenshot(page, 'share-cold-1400-waiting');
    expect(whole.scrollTop).toBeGreaterThan(0);
    expect(defined(whole.lines), whole.lines.join('\n')).toBe(true);
    release();
    await page.waitForSelector('[data-testid="verdict"][data-status="refuted"]', { timeout: 120_000 });
    expect(await toolbar(page)).toEqual(waiting);
    await close();
  });

  it('at 390 px shows the spec\'s first line uncovered while it waits', async () => {
    const { page, release, close } = await heldPage(390, 844);
    await page.goto(env.site.url + shareFragment({ handler: HANDLER, spec: WRONG }));
    await page.waitForSelector('[data-testid="progress"]');
    const waiting = await toolbar(page);
    // The spec's first line (the plain text's first 19 px row) and every note over the editor.
    const overlap = await page.locator('[data-testid="spec-editor-plain"]').evaluate((plain) => {
      const p = plain.getBoundingClientRect();
      const line = { top: p.top, bottom: p.top + 1 + 19, left: p.left, right: p.right };
      return [...(plain.parentElement?.querySelectorAll('.loading') ?? [])]
        .filter((n) => (n.textContent ?? '').trim() !== '')
        .map((n) => n.getBoundingClientRect())
        .filter((r) => r.top < line.bottom && r.bottom > line.top && r.left < line.right && r.right > line.left).length;
    });
    expect(overlap).toBe(0);
    await screenshot(page, 'share-cold-390-waiting');
    release();
    await page.waitForSelector('[data-testid="verdict"][data-status="refuted"]', { timeout: 120_000 });
    expect(await toolbar(page)).toEqual(waiting);
    await close();
  });
});
