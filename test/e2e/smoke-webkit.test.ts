/** The smoke path (test/e2e/smoke.ts) in WebKitGTK (WebKitWebDriver and MiniBrowser under Xvfb). */
import { smokeSuite } from './smoke.ts';

smokeSuite('webkit');
