/** The smoke path (test/e2e/smoke.ts) in Firefox ESR (puppeteer-core over WebDriver BiDi). */
import { smokeSuite } from './smoke.ts';

smokeSuite('firefox');
