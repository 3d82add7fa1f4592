/**
 * The teacher view after a resize from 1400 to 390 px (issue 55 item 8), in
 * Chromium, Firefox and WebKitGTK (test/e2e/driver.ts): every field and the
 * link box end inside the viewport. The starter's editor keeps the width it
 * was laid out at until its box shrinks, and the form's auto column grew to
 * fit it, so each textarea and the link box were cut off at the right. The
 * link box is the one the page shows again for an unchanged draft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, settled } from './driver.ts';
import { launchEngine } from './driver.ts';
import { ARTIFACTS, type Site, ensureBuilt, serve } from './harness.ts';

let site: Site;
beforeAll(async () => {
  site = await serve(await ensureBuilt());
});
afterAll(() => site?.close());

/** The fields (not the editor's own hidden textarea) and the link box whose right edge passes the viewport's. */
function cutOff(): string[] {
  const width = document.documentElement.clientWidth;
  const boxes = [...document.querySelectorAll('[data-testid="teacher-view"] textarea, [data-testid="teacher-view"] input, [data-testid="teacher-view"] select, [data-testid="t-link"], [data-testid="teacher-view"] .link')];
  return boxes
    .filter((e) => !e.closest('.monaco-editor') && e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > width + 1)
    .map((e) => `${e.tagName.toLowerCase()}[${e.getAttribute('data-testid') ?? e.className}] ends at ${Math.round(e.getBoundingClientRect().right)} of ${width}`);
}

describe('teacher view at a phone width after a resize', () => {
  for (const name of ENGINES) {
    it(`${name}: the textareas and the link box fit after 1400 -> 390 px`, async () => {
      const engine = await launchEngine(name);
      try {
        const tab = await engine.open(1400, 900);
        await tab.goto(`${site.url}#/learn/teacher`);
        await tab.waitFor('the teacher form', () => !!document.querySelector('[data-testid="t-title"]'));
        // Typing saves the draft; the link made from it, as the page keeps it, is shown again on the next visit.
        await tab.fill('[data-testid="t-title"]', 'Vectors');
        await tab.eval(() => {
          const draft = localStorage.getItem('osvlab.teacher.draft')!;
          localStorage.setItem('osvlab.teacher.link', JSON.stringify({ link: `${location.origin}${location.pathname}#/learn/x/${'A'.repeat(2000)}`, draft }));
          location.reload();
        });
        await tab.waitFor('the link box and the starter\'s editor', () => !!document.querySelector('[data-testid="t-link"]') && !!document.querySelector('[data-testid="teacher-view"] .monaco-editor'), 120_000);
        await settled(tab, '[data-testid="teacher-view"]');
        expect(await tab.eval(cutOff)).toEqual([]);
        await tab.resize(390, 844);
        await settled(tab, '[data-testid="teacher-view"]');
        expect(await tab.eval(cutOff)).toEqual([]);
        await tab.screenshot(`${ARTIFACTS}/teacher-${name}-390-after-resize.png`);
        await tab.close();
      } finally {
        await engine.close();
      }
    }, 180_000);
  }
});
