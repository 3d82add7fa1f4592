/** axe-core in a real page (@axe-core/playwright): what the accessibility checks of the e2e tests count. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The serious and critical violations on the page as it is now, one line per rule and element. */
export async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 4).map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}
