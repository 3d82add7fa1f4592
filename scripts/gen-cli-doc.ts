/** Regenerates docs/cli.md from the commands' declarations (src/cli/declarations.ts); test/cli/help.test.ts checks it is current. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliReference } from '../src/cli/help.ts';

writeFileSync(join(import.meta.dirname, '../docs/cli.md'), cliReference());
console.log('wrote docs/cli.md');
