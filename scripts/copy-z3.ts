// Copies Z3's Emscripten glue and wasm from the npm package into public/, where
// the verifier worker fetches them (see docs/app.md, "Loading Z3"). The glue is
// copied as src/worker/z3-glue.ts makes it (one debugging check off its hottest
// path). Skips a file that is already what it would write, so `predev` stays
// instant.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastGlue } from '../src/worker/z3-glue.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const buildDir = dirname(require.resolve('z3-solver/build/z3-built.js', { paths: [root] }));
const out = join(root, 'public');
mkdirSync(out, { recursive: true });

const glue = fastGlue(readFileSync(join(buildDir, 'z3-built.js'), 'utf8'));
if (!glue.patched) console.warn('copy-z3: the glue does not have the check src/worker/z3-glue.ts removes; copied as it ships (slower)');
const glueTo = join(out, 'z3-built.js');
if (!existsSync(glueTo) || readFileSync(glueTo, 'utf8') !== glue.text) {
  // Written aside and renamed: a build reading public/ at the same time sees the old file or the new one.
  writeFileSync(`${glueTo}.${process.pid}.part`, glue.text);
  renameSync(`${glueTo}.${process.pid}.part`, glueTo);
  console.log(`copy-z3: z3-built.js (${(glue.text.length / 1e6).toFixed(1)} MB${glue.patched ? ', table check removed' : ''})`);
}

const wasmFrom = join(buildDir, 'z3-built.wasm');
const wasmTo = join(out, 'z3-built.wasm');
const a = statSync(wasmFrom);
const fresh = existsSync(wasmTo) && statSync(wasmTo).size === a.size && statSync(wasmTo).mtimeMs >= a.mtimeMs;
if (!fresh) {
  copyFileSync(wasmFrom, `${wasmTo}.${process.pid}.part`);
  renameSync(`${wasmTo}.${process.pid}.part`, wasmTo);
  console.log(`copy-z3: z3-built.wasm (${(a.size / 1e6).toFixed(1)} MB)`);
}
