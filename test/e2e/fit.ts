/**
 * Does what is on screen fit the viewport's width? Stricter than the layout
 * test's check (which forgives anything inside a scrolling box, and `main`
 * is one): every element under `root` must end inside the viewport and no
 * box may scroll sideways, except code (pre, Monaco), which may.
 */
import type { Page } from 'playwright-core';

/** What sticks out sideways under `root`, one line each (empty: it all fits). */
export function sticksOut(page: Page, root = 'main'): Promise<string[]> {
  return page.evaluate((sel) => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const top = document.querySelector(sel);
    if (!top) return [`no ${sel}`];
    const code = (el: Element) => el.closest('pre, .monaco-editor, .monaco-diff-editor, [data-testid="spec-editor"], [data-testid="lesson-editor"]');
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}.${[...el.classList].join('.')} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    for (const el of [top, ...top.querySelectorAll('*')]) {
      if (code(el) || el.closest('.sr-only, svg')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right > width + 1) out.push(`${name(el)} ends at ${Math.round(r.right)} of ${width}`);
      const ox = getComputedStyle(el).overflowX;
      if ((ox === 'auto' || ox === 'scroll') && el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`);
    }
    return out.slice(0, 10);
  }, root);
}
