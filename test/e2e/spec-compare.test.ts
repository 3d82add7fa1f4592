/**
 * Compare in the playground (src/app/components/ComparePanel.svelte,
 * state/spec-compare.svelte.ts), in Chromium, Firefox and WebKitGTK: the
 * spec compared with the reference (same meaning) and with a pasted
 * one-token mutant (a table with a column per spec naming the field), the
 * comparison run in the verifier worker. At 390 px the table's rows stack and
 * nothing scrolls sideways. Screenshots at 1400 and 390 px go to
 * test-artifacts/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type Tab, launchEngine } from './driver.ts';
import { ARTIFACTS, ROOT, type Site, ensureBuilt, serve } from './harness.ts';
import { attr, editorReady, setEditor, text } from './playground-tab.ts';

const HANDLER = 'sys_dup';
const ORACLE = readFileSync(join(ROOT, `tasks/hv6/specs/${HANDLER}.py`), 'utf8');
const MUTANT = ORACLE.replace('new.procs[pid].ofile[newfd] = fn', 'new.procs[pid].ofile[oldfd] = fn');
const LONG = 240_000;


async function compareOnce(tab: Tab): Promise<string | null> {
  await tab.click('[data-testid="compare-run"]');
  await tab.waitFor('a comparison', () => {
    const k = document.querySelector('[data-testid="compare-result"]')?.getAttribute('data-kind');
    return k === 'done' || k === 'error';
  }, LONG);
  return tab.eval(attr, '[data-testid="compare-result"]', 'data-status');
}

let site: Site;
beforeAll(async () => {
  site = await serve(await ensureBuilt());
});
afterAll(async () => site?.close());

for (const name of ENGINES) {
  describe(`Compare in ${name}`, () => {
    it('the reference: same meaning; a pasted mutant: a table naming the field', async () => {
      const engine = await launchEngine(name);
      const tab = await engine.open(1400, 900);
      try {
        await tab.goto(`${site.url}#/play`);
        await tab.waitFor('the editor', editorReady, LONG, 'spec-editor');
        await tab.select('[data-testid="handler"]', HANDLER);
        await tab.waitFor('the handler', (h: string) => (document.querySelector('[data-testid="handler"]') as HTMLSelectElement).value === h, LONG, HANDLER);
        await tab.waitFor('the editor', editorReady, LONG, 'spec-editor');
        await setEditor(tab, ORACLE);
        await tab.eval(() => ((document.querySelector('[data-testid="compare"]') as HTMLDetailsElement).open = true));
        expect(await compareOnce(tab)).toBe('equivalent');
        expect(await tab.eval(text, '[data-testid="compare-result"]')).toContain('Same meaning');

        await tab.click('[data-testid="compare-pasted"]');
        await tab.waitFor('the text field', () => !!document.querySelector('[data-testid="compare-text"]'));
        await tab.eval((t: string) => {
          const el = document.querySelector('[data-testid="compare-text"]') as HTMLTextAreaElement;
          el.value = t;
          el.dispatchEvent(new Event('input', { bubbles: true }));
        }, MUTANT);
        expect(await compareOnce(tab)).toBe('different');
        const table = await tab.eval(text, '[data-testid="compare-table"]');
        expect(table).toContain('Your spec');
        expect(table).toContain('Pasted spec');
        expect(table).toContain('procs.ofile');
        await tab.eval(() => document.querySelector('[data-testid="compare"]')?.scrollIntoView());
        await tab.screenshot(join(ARTIFACTS, `compare-${name}-1400.png`));
        await tab.resize(390, 844);
        await tab.eval(() => document.querySelector('[data-testid="compare"]')?.scrollIntoView());
        await tab.screenshot(join(ARTIFACTS, `compare-${name}-390.png`));
        // At phone width the rows stack (one block per row, as the counterexample table): nothing scrolls sideways.
        const fits = await tab.eval(() => {
          const t = document.querySelector('[data-testid="compare-table"]')!;
          return { right: Math.round(t.getBoundingClientRect().right), scroll: t.scrollWidth, client: t.clientWidth, page: document.documentElement.scrollWidth, screen: window.innerWidth };
        });
        expect(fits.right).toBeLessThanOrEqual(fits.screen);
        expect(fits.scroll).toBeLessThanOrEqual(fits.client);
        expect(fits.page).toBeLessThanOrEqual(fits.screen);
      } finally {
        await tab.close();
        await engine.close();
      }
    }, LONG);
  });
}
