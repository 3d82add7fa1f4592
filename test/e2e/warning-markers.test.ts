/**
 * The editor's warning markers in a real Chromium: a spec with a SPEC2xx
 * warning (docs/spec-errors.md, "Warnings") gets a Monaco marker of severity
 * Warning (yellow, not an error) at the warning's line, and Verify still
 * gives the verdict the warning does not change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT, newPage, screenshot, setEditorText, waitForEditor } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();

// SPEC203 at line 5: `if a == b` on a z3 equality, False as in z3py; the spec verifies.
const SPEC = readFileSync(join(ROOT, 'test/cases/spec-warnings/if-on-equality.py'), 'utf8');

interface Marker {
  startLineNumber: number;
  startColumn: number;
  severity: number;
  code?: unknown;
}

function markers(page: Page): Promise<Marker[]> {
  return page.$eval('[data-testid="spec-editor"]', (el) => (el as HTMLElement & { markers: () => Marker[] }).markers() ?? []);
}

describe('editor warning markers', () => {
  it('shows a SPEC203 warning as a warning marker at its line, and Verify still verifies', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/play');
    await waitForEditor(page);
    if ((await page.locator('[data-testid="handler"]').inputValue()) !== 'sys_kill') {
      await page.selectOption('[data-testid="handler"]', 'sys_kill');
      await waitForEditor(page);
    }
    await page.selectOption('[data-testid="timeout"]', '120000');
    await setEditorText(page, SPEC);
    // Monaco's MarkerSeverity: Warning is 4, Error is 8.
    await expect
      .poll(async () => (await markers(page)).map((m) => [m.code, m.startLineNumber, m.startColumn, m.severity]))
      .toEqual([['SPEC203', 5, 8, 4]]);
    await expect.poll(() => page.locator('.monaco-editor .squiggly-warning').count()).toBeGreaterThan(0);
    expect(await page.locator('.monaco-editor .squiggly-error').count()).toBe(0);
    await page.click('[data-testid="verify"]');
    const verdict = page.locator('[data-testid="verdict"]');
    await verdict.waitFor({ timeout: 120_000 });
    expect(await verdict.getAttribute('data-status')).toBe('verified');
    await screenshot(page, 'playground-warning-marker');
    await context.close();
  }, 300_000);
});
