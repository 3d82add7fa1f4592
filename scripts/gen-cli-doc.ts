/** Regenerates docs/cli.md and README.md's command table from the commands' declarations (src/cli/declarations.ts); test/cli/help.test.ts checks both are current. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliReference, withReadmeCommandTable } from '../src/cli/help.ts';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'docs/cli.md'), cliReference());
console.log('wrote docs/cli.md');
const readme = join(root, 'README.md');
writeFileSync(readme, withReadmeCommandTable(readFileSync(readme, 'utf8')));
console.log("wrote README.md's command table");
