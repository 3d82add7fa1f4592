/**
 * Regenerates tasks/hv6/bundle.json, tasks/hv6/descriptions.json,
 * tasks/hv6/kernel-program.json and tasks/hv6/tasks.json from the files under tasks/hv6 and the C front end
 * (`npm run bundle`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleText, collectBundle, descriptionsText, kernelProgramText, tasksBundleText } from './bundle-lib.ts';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'tasks/hv6/bundle.json'), bundleText(root));
console.log('wrote tasks/hv6/bundle.json');
writeFileSync(join(root, 'tasks/hv6/descriptions.json'), descriptionsText(root));
console.log('wrote tasks/hv6/descriptions.json');
writeFileSync(join(root, 'tasks/hv6/kernel-program.json'), kernelProgramText(collectBundle(root)));
console.log('wrote tasks/hv6/kernel-program.json');
writeFileSync(join(root, 'tasks/hv6/tasks.json'), tasksBundleText(root));
console.log('wrote tasks/hv6/tasks.json');
