/**
 * The functional descriptions of the handlers (tasks/hv6/descriptions/*.md),
 * from the generated `tasks/hv6/descriptions.json` (`npm run bundle`; a test
 * checks it is current). They are a task's and the page's, never a
 * verification's: kept out of tasks/hv6/bundle.json, which the verifier
 * worker imports, they are not in its first code (docs/design.md, "The
 * worker's first code").
 */
import descriptions from '../../../tasks/hv6/descriptions.json';

/** Markdown by handler name (C name or hv6 alias, as the file is named); read with `contentEntry`. */
export const DESCRIPTIONS: Readonly<Record<string, string>> = descriptions as Record<string, string>;
