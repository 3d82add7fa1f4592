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
