/**
 * Micro-benchmark of the spec interpreter: for every oracle spec present in
 * tasks/hv6/specs/, the median time of runSpec on a fresh symbolic state
 * (parse cached, as in the verifier), the cold first run, and the median of
 * lintSpec (what the editor calls on every change).
 *
 *   npx tsx perf/spec-interp.ts [repeats]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { findHandler } from '../src/core/kernel/handlers.ts';
import { freshState } from '../src/core/kernel/state.ts';
import { variable } from '../src/core/smt/term.ts';
import { lintSpec, runSpec } from '../src/core/dialect/index.ts';

const DIR = new URL('../tasks/hv6/specs/', import.meta.url);
const repeats = Number(process.argv[2] ?? 20);

/** The oracle's text with its `# uses: name` helpers prepended. */
function oracleSource(file: string): string {
  const text = readFileSync(new URL(file, DIR), 'utf8');
  const uses = [...text.matchAll(/^# uses: (\w+)\s*$/gm)].map((m) => m[1]);
  return [...uses.map((u) => readFileSync(new URL(`_shared/${u}.py`, DIR), 'utf8')), text].join('\n');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

let files: string[] = [];
try {
  files = readdirSync(DIR).filter((f) => f.endsWith('.py')).sort();
} catch {
  // no oracle directory yet
}
if (files.length === 0) {
  console.log('no oracle specs in tasks/hv6/specs/');
  process.exit(0);
}

const rows: Array<[string, number, number, number, number]> = [];
for (const file of files) {
  const name = file.replace(/\.py$/, '');
  const h = findHandler(name);
  if (!h) continue;
  const source = oracleSource(file);
  const args = h.args.map((a) => variable(a.name, a.width));
  const times: number[] = [];
  let steps = 0;
  for (let i = 0; i <= repeats; i++) {
    const pre = freshState();
    const t = performance.now();
    const r = runSpec(source, name, pre, args);
    times.push(performance.now() - t);
    if (!r.ok) {
      console.log(`${name}: ${r.error.code} ${r.error.message}`);
      break;
    }
    steps = r.trace?.steps ?? 0;
  }
  const checks: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    lintSpec(source, name);
    checks.push(performance.now() - t);
  }
  rows.push([name, times[0], median(times.slice(1)), median(checks), steps]);
}

console.log(`${'handler'.padEnd(26)} ${'cold ms'.padStart(8)} ${'run ms'.padStart(8)} ${'check ms'.padStart(9)} ${'steps'.padStart(6)}`);
for (const [name, cold, med, check, steps] of rows) {
  console.log(
    `${name.padEnd(26)} ${cold.toFixed(2).padStart(8)} ${med.toFixed(3).padStart(8)} ${check.toFixed(3).padStart(9)} ${String(steps).padStart(6)}`,
  );
}
const meds = rows.map((r) => r[2]);
const checksMed = rows.map((r) => r[3]);
console.log(
  `\n${rows.length} oracles, ${repeats} runs each. runSpec: median of medians ${median(meds).toFixed(3)} ms, ` +
    `max ${Math.max(...meds).toFixed(3)} ms. lintSpec: median ${median(checksMed).toFixed(3)} ms, max ${Math.max(...checksMed).toFixed(3)} ms`,
);
