/**
 * The playground's History (src/app/components/HistoryPanel.svelte,
 * state/history.svelte.ts, lib/history-db.ts) in Chromium, Firefox and
 * WebKitGTK: two Verifies kept, kept across a reload, a title edited and
 * searched, the text diff (Monaco's diff editor) and the meaning diff of the
 * two, a version restored and compared with the spec in the editor, and a
 * history file imported. Screenshots at 1400
 * and 390 px go to test-artifacts/.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, launchEngine } from './driver.ts';
import { ARTIFACTS, ROOT, type Site, ensureBuilt, serve } from './harness.ts';
import { attr, editorReady, setEditor, verifyOnce } from './playground-tab.ts';

const HANDLER = 'sys_dup';
const ORACLE = readFileSync(join(ROOT, `tasks/hv6/specs/${HANDLER}.py`), 'utf8');
const MUTANT = ORACLE.replace('new.procs[pid].ofile[newfd] = fn', 'new.procs[pid].ofile[oldfd] = fn');
const LONG = 240_000;
const dir = mkdtempSync(join(tmpdir(), 'osvlab-history-'));

const count = (sel: string) => document.querySelectorAll(sel).length;

let site: Site;
beforeAll(async () => {
  site = await serve(await ensureBuilt());
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const name of ENGINES) {
  describe(`History in ${name}`, () => {
    it('keeps every Verify across a reload; title, search, text and meaning diff, restore, compare with my spec, import', async () => {
      const engine = await launchEngine(name);
      const tab = await engine.open(1400, 900);
      try {
        await tab.goto(`${site.url}#/play`);
        await tab.waitFor('the editor', editorReady, LONG, 'spec-editor');
        await tab.select('[data-testid="handler"]', HANDLER);
        await tab.waitFor('the handler', (h: string) => (document.querySelector('[data-testid="handler"]') as HTMLSelectElement).value === h, LONG, HANDLER);
        await tab.waitFor('the editor', editorReady, LONG, 'spec-editor');
        await setEditor(tab, ORACLE);
        await verifyOnce(tab);
        await setEditor(tab, MUTANT);
        await verifyOnce(tab);
        await tab.waitFor('two kept', () => document.querySelector('[data-testid="history"]')?.getAttribute('data-count') === '2', LONG);

        // A mark the reloaded page does not have: the waits below must not pass on the old page.
        await tab.eval(() => {
          (window as unknown as { before?: boolean }).before = true;
          location.reload();
        });
        await tab.waitFor('the reloaded page', () => !(window as unknown as { before?: boolean }).before && !!document.querySelector('[data-testid="spec-editor"][data-ready="true"] .monaco-editor'), LONG);
        await tab.waitFor('two kept after a reload', () => document.querySelector('[data-testid="history"]')?.getAttribute('data-count') === '2', LONG);
        await tab.eval(() => ((document.querySelector('[data-testid="history"]') as HTMLDetailsElement).open = true));

        // The older one (listed last) gets a title; a search finds it alone.
        await tab.eval(() => {
          const titles = document.querySelectorAll<HTMLInputElement>('[data-testid="history-title"]');
          const t = titles[titles.length - 1];
          t.value = 'the reference as written';
          t.dispatchEvent(new Event('change', { bubbles: true }));
        });
        await tab.waitFor('the title kept', () => [...document.querySelectorAll<HTMLInputElement>('[data-testid="history-title"]')].some((t) => t.value === 'the reference as written'));
        await tab.eval(() => {
          const s = document.querySelector('[data-testid="history-search"]') as HTMLInputElement;
          s.value = 'reference as';
          s.dispatchEvent(new Event('input', { bubbles: true }));
        });
        await tab.waitFor('one found', () => document.querySelectorAll('[data-testid="history-entry"]').length === 1);
        await tab.eval(() => {
          const s = document.querySelector('[data-testid="history-search"]') as HTMLInputElement;
          s.value = '';
          s.dispatchEvent(new Event('input', { bubbles: true }));
        });
        await tab.waitFor('both listed', () => document.querySelectorAll('[data-testid="history-entry"]').length === 2);

        // Both picked: the meaning diff names the field; the text diff is Monaco's diff editor.
        await tab.eval(() => document.querySelectorAll<HTMLInputElement>('[data-testid="history-pick"]').forEach((c) => c.click()));
        await tab.click('[data-testid="history-meaning-diff"]');
        await tab.waitFor('the meaning diff', () => document.querySelector('[data-testid="history-meaning"]')?.getAttribute('data-kind') === 'done', LONG);
        expect(await tab.eval(attr, '[data-testid="history-meaning"]', 'data-status')).toBe('different');
        expect(await tab.eval(() => document.querySelector('[data-testid="history-meaning"]')?.textContent ?? '')).toContain('procs.ofile');
        await tab.click('[data-testid="history-text-diff"]');
        await tab.waitFor('the text diff', () => !!document.querySelector('[data-testid="history"] .monaco-diff-editor'), LONG);
        await tab.eval(() => document.querySelector('[data-testid="history"]')?.scrollIntoView());
        await tab.screenshot(join(ARTIFACTS, `history-${name}-1400.png`));
        await tab.resize(390, 844);
        await tab.eval(() => document.querySelector('[data-testid="history"]')?.scrollIntoView());
        await tab.screenshot(join(ARTIFACTS, `history-${name}-390.png`));
        await tab.resize(1400, 900);

        // Restore the older version: the editor holds the reference again.
        await tab.eval(() => {
          const buttons = document.querySelectorAll<HTMLButtonElement>('[data-testid="history-restore"]');
          buttons[buttons.length - 1].click();
        });
        await tab.waitFor(
          'the restored spec',
          (t: string) => (document.querySelector('[data-testid="spec-editor"]') as HTMLElement & { monacoEditor?: { getValue(): string } }).monacoEditor?.getValue() === t,
          LONG,
          ORACLE,
        );

        // One version picked (the newer, the mutant) against the spec in the editor (the reference again): they differ.
        await tab.eval(() => {
          const picks = document.querySelectorAll<HTMLInputElement>('[data-testid="history-pick"]');
          picks[picks.length - 1].click();
        });
        await tab.waitFor('one picked', () => !!document.querySelector('[data-testid="history-compare-mine"]'));
        await tab.click('[data-testid="history-compare-mine"]');
        await tab.waitFor('the comparison with my spec', () => document.querySelector('[data-testid="history-meaning"]')?.getAttribute('data-kind') === 'done', LONG);
        expect(await tab.eval(attr, '[data-testid="history-meaning"]', 'data-status')).toBe('different');
        expect(await tab.eval(() => document.querySelector('[data-testid="history-meaning"]')?.textContent ?? '')).toContain('That version');

        // A history file imported adds its entries.
        const file = join(dir, `${name}.json`);
        writeFileSync(file, JSON.stringify({ format: 'osvlab-history', v: 1, entries: [{ handler: HANDLER, variant: '', spec: ORACLE, status: 'verified', at: 1, title: 'imported' }] }));
        await tab.upload('[data-testid="history-import"]', file);
        await tab.waitFor('three kept', () => document.querySelector('[data-testid="history"]')?.getAttribute('data-count') === '3', LONG);
        expect(await tab.eval(count, '[data-testid="history-error"]')).toBe(0);
      } finally {
        await tab.close();
        await engine.close();
      }
      // Two verifications and a reload, each loading Z3 again (Firefox and WebKitGTK compile its wasm on every visit).
    }, 2 * LONG);
  });
}
