/** Regenerates tasks/hv6/bundle.json from the files under tasks/hv6 (`npm run bundle`). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleText } from './bundle-lib.ts';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'tasks/hv6/bundle.json'), bundleText(root));
console.log('wrote tasks/hv6/bundle.json');
