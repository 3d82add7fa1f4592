/** The Evaluate page's run form, filled for a run against the fake provider (no key needed). */
import type { Page } from 'playwright-core';

export interface FakeRunForm {
  /** The site's URL (the page opens its #/evaluate). */
  readonly site: string;
  /** The fake provider's URL. */
  readonly provider: string;
  readonly model: string;
  readonly ids: readonly string[];
  readonly shots: number;
  readonly repair: number;
}

/** Opens the Evaluate page and fills in an openai-compatible run of `form.ids`; the caller starts it. */
export async function fillRunForm(page: Page, form: FakeRunForm): Promise<void> {
  await page.goto(form.site + '#/evaluate');
  await page.selectOption('[data-testid="provider"]', 'openai-compatible');
  await page.fill('[data-testid="base-url"]', `${form.provider}/v1`);
  await page.fill('[data-testid="model"]', form.model);
  await page.fill('[data-testid="selection"]', form.ids.join(','));
  await page.getByLabel('Few-shot examples').fill(String(form.shots));
  await page.getByLabel('Repair rounds').fill(String(form.repair));
}

/**
 * Clicks Start and waits for the run it starts to end, on the root element's
 * ready states (`data-run`, `data-run-id`; docs/app.md, "Ready states"), and
 * returns how it ended (`done`, `incomplete`, ...). A wait on the progress
 * line alone can take the previous run's end for this one's: its "Run done"
 * stays on screen until the new run has started. For a run whose id differs
 * from the one before it on the page (a run with the same settings is the
 * same run, with the same id).
 */
export async function startRunAndWait(page: Page, timeoutMs = 600_000): Promise<string> {
  const before = await page.evaluate(() => document.documentElement.dataset.runId ?? '');
  await page.click('[data-testid="start-run"]');
  await page.waitForFunction(
    (previous) => {
      const d = document.documentElement.dataset;
      return !!d.runId && d.runId !== previous && d.run !== 'running' && d.run !== 'idle';
    },
    before,
    { timeout: timeoutMs, polling: 250 },
  );
  return page.evaluate(() => document.documentElement.dataset.run ?? '');
}
