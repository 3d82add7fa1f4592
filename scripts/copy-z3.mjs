// Copies Z3's Emscripten glue and wasm from the npm package into public/, where
// the verifier worker fetches them (see docs/app.md, "Loading Z3"). Skips the copy
// when the files are already identical in size and age, so `predev` stays instant.
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const buildDir = dirname(require.resolve('z3-solver/build/z3-built.js', { paths: [root] }));
const out = join(root, 'public');
mkdirSync(out, { recursive: true });

for (const name of ['z3-built.js', 'z3-built.wasm']) {
  const from = join(buildDir, name);
  const to = join(out, name);
  const a = statSync(from);
  if (existsSync(to)) {
    const b = statSync(to);
    if (b.size === a.size && b.mtimeMs >= a.mtimeMs) continue;
  }
  copyFileSync(from, to);
  console.log(`copy-z3: ${name} (${(a.size / 1e6).toFixed(1)} MB)`);
}
