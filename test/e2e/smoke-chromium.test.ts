/** The smoke path (test/e2e/smoke.ts) in Chromium (playwright-core). */
import { smokeSuite } from './smoke.ts';

smokeSuite('chromium');
