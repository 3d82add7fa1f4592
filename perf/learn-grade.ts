/**
 * Course timing on the built site, in a cold Chromium per run: opening a lesson
 * exercise until its editor is editable, the first grade (cold: Z3 loads), a
 * warm re-grade of the same exercise, and a grade with a buggy variant (the
 * task bundle loads and the variant is verified). Prints medians.
 * Run: npx tsx perf/learn-grade.ts [--runs N]
 */
import type { Page } from 'playwright-core';
import { editorText, ensureBuilt, launch, newPage, serve, setEditorText, waitForEditor } from '../test/e2e/harness.ts';

/** Edits the exercise's answer as a learner would fix it. */
async function fix(page: Page, from: string, to: string): Promise<void> {
  await setEditorText(page, (await editorText(page, 'lesson-editor')).replace(from, to), 'lesson-editor');
}

const i = process.argv.indexOf('--runs');
const runs = i >= 0 ? Number(process.argv[i + 1]) : 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const site = await serve(await ensureBuilt());
  const browser = await launch();
  const rows: Record<string, number[]> = { editor: [], firstGrade: [], warmGrade: [], variantGrade: [] };
  try {
    for (let r = 0; r < runs; r++) {
      const { page, context } = await newPage(browser);
      const t0 = Date.now();
      await page.goto(site.url + '#/learn/state-machines/fix-state');
      await waitForEditor(page, 'lesson-editor');
      rows.editor.push(Date.now() - t0);
      const grade = async (kind: string) => {
        const t = Date.now();
        await page.click('[data-testid="lesson-check"]');
        await page.waitForSelector(`[data-testid="lesson-grade"][data-kind="${kind}"]`, { timeout: 180_000 });
        return Date.now() - t;
      };
      rows.firstGrade.push(await grade('failed'));
      await fix(page, 'PROC_RUNNING', 'PROC_RUNNABLE');
      await page.waitForTimeout(100);
      rows.warmGrade.push(await grade('passed'));
      await page.goto(site.url + '#/learn/bug-privilege/upside-down');
      await waitForEditor(page, 'lesson-editor');
      await fix(page, 'ppid != old.current', 'ppid == old.current');
      await page.waitForTimeout(100);
      rows.variantGrade.push(await grade('passed'));
      await context.close();
    }
  } finally {
    await browser.close();
    await site.close();
  }
  for (const [k, xs] of Object.entries(rows)) console.log(`${k.padEnd(13)} median ${median(xs)} ms  (${xs.join(', ')})`);
}

void main();
