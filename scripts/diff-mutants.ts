/**
 * How sharp the differential test is (docs/differential.md): links each C
 * mutant of test/cases/mutants into our executor only (gcc keeps the real
 * kernel) and counts the mutants whose handler's cases show a disagreement.
 * A mutant that no case exposes behaves like the kernel on every generated
 * state, which points at a gap in the state generator (test/diff/world.ts).
 *
 *   npx tsx scripts/diff-mutants.ts [cases per mutant, default 300]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../test/diff/native.ts';
import { cleanup, handlerIndex, runCases, setup, withOverrides } from '../test/diff/run.ts';

const n = Number(process.argv[2] ?? 300);
const dir = join(ROOT, 'test/cases/mutants');
// One native driver for all: the mutants change our side only.
const base = setup();
const missed: string[] = [];
let total = 0;
for (const handler of readdirSync(dir).sort()) {
  for (const f of readdirSync(join(dir, handler)).filter((x) => x.endsWith('.c')).sort()) {
    const path = join(dir, handler, f);
    const text = readFileSync(path, 'utf8');
    const results = runCases(withOverrides(base, [{ path, text }]), handlerIndex(handler), Array.from({ length: n }, (_, i) => i));
    const bad = results.filter((x) => x.outcome.mismatches.length > 0).length;
    total++;
    console.log(`${bad ? 'exposed' : 'MISSED '} ${handler}/${f}: ${bad} of ${n} cases disagree`);
    if (!bad) missed.push(`${handler}/${f}: ${text.split('\n')[1]?.replace(/^\/\/\s*/, '') ?? ''}`);
  }
}
cleanup(base);
console.log(`\n${total - missed.length} of ${total} mutants exposed with ${n} cases each`);
if (missed.length) console.log(`not exposed:\n  ${missed.join('\n  ')}`);
