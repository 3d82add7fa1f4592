/**
 * Micro-benchmark of the C front end and the symbolic executor on the hv6
 * kernel: the time to parse and link all of it, then the median time of
 * execFunction per handler (fresh memory and arguments each run).
 * Run: npx tsx perf/symex.ts [runs]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execFunction, freshMemory, parseProgram } from '../src/core/c/index.ts';
import { HANDLERS } from '../src/core/kernel/handlers.ts';
import { variable } from '../src/core/smt/term.ts';

const dir = join(import.meta.dirname, '../tasks/hv6/kernel');
const files = new Map<string, string>();
for (const f of readdirSync(dir)) if (/\.[ch]$/.test(f)) files.set(f, readFileSync(join(dir, f), 'utf8'));
const units = [...files.keys()].filter((f) => f.endsWith('.c')).sort();
const runs = Number(process.argv[2] ?? 15);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const parseTimes: number[] = [];
let program;
const WARMUP = 5;
for (let i = 0; i < runs + WARMUP; i++) {
  const t0 = performance.now();
  const r = parseProgram(files, units);
  parseTimes.push(performance.now() - t0);
  if (!r.ok) {
    for (const e of r.errors) console.error(e.detail);
    process.exit(1);
  }
  program = r.program;
}
const lines = [...files.values()].reduce((n, t) => n + t.split('\n').length, 0);
const warm = parseTimes.slice(WARMUP);
console.log(
  `parse+link ${units.length} units (${files.size} files, ${lines} lines): first (cold) ${parseTimes[0].toFixed(1)} ms, ` +
    `then over ${warm.length} runs min ${Math.min(...warm).toFixed(1)} ms, median ${median(warm).toFixed(1)} ms`,
);

console.log(`\n${'handler'.padEnd(26)} ${'median ms'.padStart(10)} ${'paths'.padStart(6)} ${'steps'.padStart(6)} ${'safety'.padStart(7)}`);
let total = 0;
for (const h of HANDLERS) {
  const fn = program!.functions.get(h.name);
  if (!fn?.body) {
    console.log(`${h.name.padEnd(26)} ${'(missing)'.padStart(10)}`);
    continue;
  }
  const times: number[] = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const mem = freshMemory(program!);
    const args = h.args.map((a) => variable(`arg.${a.name}`, a.width));
    const t0 = performance.now();
    last = execFunction(program!, h.name, mem, args);
    times.push(performance.now() - t0);
  }
  if (!last!.ok) {
    console.log(`${h.name.padEnd(26)} ERROR ${last!.error.code} ${last!.error.message}`);
    continue;
  }
  const m = median(times);
  total += m;
  console.log(`${h.name.padEnd(26)} ${m.toFixed(2).padStart(10)} ${String(last!.stats.paths).padStart(6)} ${String(last!.stats.steps).padStart(6)} ${String(last!.safety.length).padStart(7)}`);
}
console.log(`\nsum of medians over handlers: ${total.toFixed(1)} ms`);
