// The site's build step for Z3 (`predev`, `prebuild`): src/z3/site-copy.ts copies z3-solver's glue and
// wasm into public/, as src/z3/build.ts makes them (docs/app.md, "Loading Z3").
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyZ3ToSite } from '../src/z3/site-copy.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
copyZ3ToSite(root, join(root, 'public'), [fileURLToPath(import.meta.url)]);
