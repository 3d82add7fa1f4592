/**
 * The kernel's program, cold: parsed (preprocess, parse, check, link) against
 * read back from its shipped form (tasks/hv6/kernel-program.json, with its
 * JSON.parse), each in a fresh Node process so the JIT starts cold every
 * time, as in a page's worker (docs/measurements.md, "The kernel's program
 * made at build time"). Both are followed by the program's address facts,
 * as the worker's "kernel: parse + symbolic form" phase is. The two ways
 * alternate, and the ratio is taken pair by pair.
 *
 *   npx tsx perf/kernel-program.ts [--runs N]     (default 9 pairs)
 *
 * A sample prints `ms` of one child: `npx tsx perf/kernel-program.ts --child parse|form`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addressFacts, parseProgram } from '../src/core/c/index.ts';
import { KERNEL } from '../src/core/kernel/content.ts';
import { type ShippedProgram, shippedProgram } from '../src/core/kernel/program.ts';

const ROOT = join(import.meta.dirname, '..');
const SHIPPED = join(ROOT, 'tasks/hv6/kernel-program.json');

function child(way: string): void {
  const text = readFileSync(SHIPPED, 'utf8');
  const t0 = performance.now();
  if (way === 'parse') {
    const r = parseProgram(KERNEL.files, KERNEL.units);
    if (!r.ok) throw new Error('the kernel does not compile');
    addressFacts(r.program);
  } else {
    const p = shippedProgram(KERNEL, JSON.parse(text) as ShippedProgram);
    if (!p) throw new Error('the shipped form is not this kernel’s');
    addressFacts(p);
  }
  const t1 = performance.now();
  // The second time, warm (as on a worker that already parsed once).
  if (way === 'parse') parseProgram(new Map(KERNEL.files), KERNEL.units);
  else shippedProgram(KERNEL, JSON.parse(text) as ShippedProgram);
  console.log(JSON.stringify({ cold: t1 - t0, warm: performance.now() - t1 }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function main(): void {
  const i = process.argv.indexOf('--runs');
  const runs = i > 0 ? Number(process.argv[i + 1]) : 9;
  const sample = (way: string) =>
    JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'kernel-program.ts'), '--child', way], { cwd: ROOT, encoding: 'utf8' })) as {
      cold: number;
      warm: number;
    };
  const parse: { cold: number; warm: number }[] = [];
  const form: { cold: number; warm: number }[] = [];
  for (let r = 0; r < runs; r++) {
    parse.push(sample('parse'));
    form.push(sample('form'));
  }
  const row = (name: string, xs: { cold: number; warm: number }[]) => {
    const c = xs.map((x) => x.cold);
    console.log(`${name}: cold median ${median(c).toFixed(1)} ms (min ${Math.min(...c).toFixed(1)}, max ${Math.max(...c).toFixed(1)}), warm median ${median(xs.map((x) => x.warm)).toFixed(1)} ms`);
  };
  row('parse + address facts', parse);
  row('shipped form + address facts', form);
  const ratios = parse.map((p, k) => form[k].cold / p.cold);
  console.log(`form/parse, cold, pair by pair: median ${median(ratios).toFixed(3)} (min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)}) over ${runs} pairs`);
  console.log(`form: ${(readFileSync(SHIPPED).length / 1024).toFixed(0)} kB`);
}

const c = process.argv.indexOf('--child');
if (c > 0) child(process.argv[c + 1]);
else main();
