/**
 * Every page at a phone's width (390 px) and a desktop's (1400 px): nothing
 * overflows the viewport sideways, no chart text is cut off at its edge, and
 * the playground's toolbar keeps to one row on a desktop. Screenshots of
 * every page at both widths go to test-artifacts/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageTab, settled } from './driver.ts';
import { screenshot, waitForEditor } from './harness.ts';
import { makeRunFile } from './run-file.ts';
import { useSite } from './setup.ts';

const env = useSite();

interface Route {
  readonly name: string;
  readonly hash: string;
  /** What to wait for before measuring. */
  readonly ready: (page: Page) => Promise<unknown>;
}

const ROUTES = (runId: string): Route[] => [
  { name: 'play', hash: '#/play', ready: (p) => waitForEditor(p) },
  { name: 'tasks', hash: '#/tasks', ready: (p) => p.waitForSelector('[data-testid="task-count"]') },
  { name: 'task', hash: '#/tasks/sys_dup-v1', ready: (p) => p.waitForSelector('[data-testid="task-description"]') },
  { name: 'no-task', hash: '#/tasks/does-not-exist', ready: (p) => p.waitForSelector('[data-testid="no-such-task"]') },
  { name: 'learn', hash: '#/learn', ready: (p) => p.waitForSelector('main h1, main h2') },
  { name: 'evaluate', hash: '#/evaluate', ready: (p) => p.waitForSelector('[data-testid="start-run"]') },
  { name: 'runs', hash: '#/runs', ready: (p) => p.waitForSelector('[data-testid="run-list"]') },
  { name: 'run', hash: `#/runs/${encodeURIComponent(runId)}`, ready: (p) => p.waitForSelector('[data-testid="metrics"]') },
  { name: 'about', hash: '#/about', ready: (p) => p.waitForSelector('main h1') },
];

/** Elements that stick out of the viewport sideways (not counting those inside a scrolling box), and cut SVG text. */
function problems(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const overflow = document.documentElement.scrollWidth - width;
    if (overflow > 0) out.push(`the page scrolls sideways by ${overflow} px`);
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}.${[...el.classList].join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const ox = getComputedStyle(a).overflowX;
        if (ox !== 'visible') return true;
      }
      return false;
    };
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('.monaco-editor, .monaco-diff-editor, svg')) continue;
      const r = el.getBoundingClientRect();
      // Zero-sized, or parked off-screen on purpose (the skip link, screen-reader-only text).
      if (r.width === 0 || r.height === 0 || r.right <= 0 || el.closest('.sr-only')) continue;
      if ((r.right > width + 1 || r.left < -1) && !clipped(el)) out.push(`${describe(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`);
      // A scrolling box must itself fit, and a non-scrolling one must hold its content.
      const ox = getComputedStyle(el).overflowX;
      if (ox === 'hidden' && el.scrollWidth > el.clientWidth + 1 && !el.closest('select')) out.push(`${describe(el)} hides ${el.scrollWidth - el.clientWidth} px of its content`);
    }
    for (const svg of document.querySelectorAll('svg[viewBox]')) {
      const vb = (svg as SVGSVGElement).viewBox.baseVal;
      for (const t of svg.querySelectorAll('text')) {
        const b = (t as SVGTextElement).getBBox();
        if (b.x < vb.x - 0.5 || b.x + b.width > vb.x + vb.width + 0.5) out.push(`chart text "${t.textContent}" is cut at the edge of its chart`);
      }
    }
    return out.slice(0, 12);
  });
}

describe('layout', () => {
  for (const width of [390, 1400]) {
    it(`no page overflows or cuts text at ${width} px`, async () => {
      const context = await env.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      // Both pass: the longest chart labels ("100.0% (2 tasks)").
      const { path, runId } = await makeRunFile(true);
      await page.goto(env.site.url + '#/runs');
      await page.setInputFiles('[data-testid="import-run"]', path);
      await page.waitForSelector('[data-testid="metrics"]');
      const found: Record<string, string[]> = {};
      for (const r of ROUTES(runId)) {
        await page.goto(env.site.url + r.hash);
        await r.ready(page);
        await settled(pageTab(page));
        const p = await problems(page);
        if (p.length) found[r.name] = p;
        await screenshot(page, `layout-${width}-${r.name}`);
      }
      expect(found).toEqual({});
      await context.close();
    }, 180_000);
  }

  it('keeps the playground toolbar on one row at 1400 px, whatever implementation is chosen', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(env.site.url + '#/play');
    await waitForEditor(page);
    await page.selectOption('[data-testid="handler"]', 'call_proc');
    await waitForEditor(page);
    // The variants arrive with the task bundle.
    await expect.poll(() => page.locator('[data-testid="variant"] option').count()).toBeGreaterThan(1);
    const variants = await page.locator('[data-testid="variant"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    for (const v of variants) {
      await page.selectOption('[data-testid="variant"]', v);
      const [handler, copy] = await Promise.all([page.locator('[data-testid="handler"]').boundingBox(), page.locator('[data-testid="copy-link"]').boundingBox()]);
      const middle = (b: { y: number; height: number }) => b.y + b.height / 2;
      expect(Math.abs(middle(handler!) - middle(copy!)), `the toolbar wraps to a second row with ${v}`).toBeLessThan(6);
    }
    await context.close();
  }, 60_000);
});
