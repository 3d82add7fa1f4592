/**
 * Declarative-check benchmark: for every handler with an oracle spec, the
 * time to check the spec invariants and every lemma (proveStepLemmas, from a
 * fresh symbolic state), median of N runs; then the median, p90 and total
 * over handlers, and the one-off corollary and initial-state checks.
 *
 * Run: npx tsx perf/lemmas.ts [--runs N] [--handler NAME[,NAME...]] [--timeout MS]
 */
import { nodeCaches, nodeEngine } from '../src/z3/node.ts';
import { KERNEL, oracleSpec } from '../src/core/kernel/content.ts';
import { findHandler } from '../src/core/kernel/handlers.ts';
import { freshState } from '../src/core/kernel/state.ts';
import { variable } from '../src/core/smt/term.ts';
import { runSpec } from '../src/core/dialect/index.ts';
import { proveCorollaries, proveInitial } from '../src/core/verify/engine-proofs.ts';
import { proveStepLemmas } from '../src/core/verify/step-lemmas.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const runs = Number(arg('runs', '3'));
const timeoutMs = Number(arg('timeout', '120000'));
const only = arg('handler', '');

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function main() {
  const engine = await nodeEngine();
  const handlers = (only ? only.split(',') : Object.keys(KERNEL.specs)).filter((h) => findHandler(h)).sort();
  const medians: number[] = [];
  let notProved = 0;
  console.log(`lemma checks, ${handlers.length} oracle specs, median of ${runs} runs`);
  for (const handler of handlers) {
    const h = findHandler(handler)!;
    const times: number[] = [];
    let queries = 0;
    let summary = '';
    for (let r = 0; r < runs; r++) {
      // A fresh state and spec run each time: nothing is shared between runs but Z3 itself.
      const pre = freshState();
      const res = runSpec(oracleSpec(handler)!, h.name, pre, h.args.map((a) => variable(`arg.${a.name}`, a.width)));
      if (!res.ok) throw new Error(`${handler}: ${res.error.message}`);
      let q = 0;
      const t = Date.now();
      const rep = await proveStepLemmas({ pre, cond: res.cond, post: res.post, handler: h.name }, engine, { timeoutMs, onQuery: () => q++ });
      times.push(Date.now() - t);
      queries = q;
      const bad = [...rep.invariants, ...rep.lemmas].filter((l) => l.status !== 'proved');
      summary = bad.length === 0 ? 'all proved' : bad.map((l) => `${l.name}=${l.status}`).join(' ');
      if (r === 0) notProved += bad.length;
    }
    const m = quantile(times, 0.5);
    medians.push(m);
    console.log(`${handler.padEnd(26)} ${String(m).padStart(7)} ms  ${String(queries).padStart(3)} queries  ${summary}`);
  }
  const total = medians.reduce((a, b) => a + b, 0);
  console.log(`\nper handler: median ${quantile(medians, 0.5)} ms, p90 ${quantile(medians, 0.9)} ms; total ${(total / 1000).toFixed(1)} s`);
  let t = Date.now();
  const cor = await proveCorollaries({ engine, caches: nodeCaches() }, { timeoutMs });
  console.log(`corollaries: ${Date.now() - t} ms (${cor.map((c) => `${c.name}=${c.status}`).join(' ')})`);
  t = Date.now();
  const init = await proveInitial({ engine, caches: nodeCaches() }, { timeoutMs });
  const initBad = init.filter((x) => x.status !== 'proved');
  console.log(`initial state: ${Date.now() - t} ms (${initBad.length === 0 ? 'all satisfiable' : initBad.map((x) => x.name).join(' ')})`);
  if (notProved > 0) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
