/**
 * How much of the kernel the differential test's cases exercise
 * (docs/differential.md): builds the driver with gcov, runs the same cases
 * as the test, and prints line and branch coverage per kernel file plus
 * every line that no case reached.
 *
 *   npx tsx scripts/diff-coverage.ts [cases per handler, default 300] [handler ...]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HANDLERS } from '../src/core/kernel/handlers.ts';
import { KERNEL_DIR, runNative } from '../test/diff/native.ts';
import { cleanup, setup } from '../test/diff/run.ts';
import { generateCase } from '../test/diff/world.ts';

const argv = process.argv.slice(2);
const n = argv.length && /^\d+$/.test(argv[0]) ? Number(argv.shift()) : 300;
const only = new Set(argv);
const s = setup([], { coverage: true });
const cases = [];
for (let h = 0; h < HANDLERS.length; h++) {
  if (only.size && !only.has(HANDLERS[h].name)) continue;
  for (let seed = 0; seed < n; seed++) {
    const c = generateCase(s.layout, s.addr, h, seed);
    cases.push({ cells: c.state.raw(), handler: h, args: c.args });
  }
}
// One process, so gcov's counters add up over every case.
runNative(s.driver, cases);

const kernel = readdirSync(KERNEL_DIR).filter((f) => f.endsWith('.c')).sort();
const g = spawnSync('gcov', ['-b', '-o', s.driver.dir, ...kernel.map((f) => join(KERNEL_DIR, f))], { cwd: s.driver.dir, encoding: 'utf8' });
if (g.status !== 0) throw new Error(`gcov failed: ${g.stderr}`);
let file = '';
for (const line of g.stdout.split('\n')) {
  const m = /^File '(.*)'/.exec(line);
  if (m) file = m[1];
  else if (line.startsWith('Creating')) file = 'total';
  else if (/^(Lines|Branches|Taken)/.test(line) && (file === 'total' || file.startsWith(KERNEL_DIR))) {
    console.log(`${file === 'total' ? 'all kernel files' : file.slice(KERNEL_DIR.length + 1)}: ${line}`);
  }
}
console.log(`\n${cases.length} cases. Lines no case reached (gcov '#####'):`);
for (const f of kernel) {
  let text = '';
  try {
    text = readFileSync(join(s.driver.dir, `${f}.gcov`), 'utf8');
  } catch {
    continue; // no code in the file (globals.c)
  }
  for (const line of text.split('\n')) {
    const m = /^\s*#####:\s*(\d+):(.*)$/.exec(line);
    if (m) console.log(`  ${f}:${m[1]}: ${m[2].trim()}`);
  }
}
cleanup(s);
