/**
 * The agent mode's `run` tool over the state bank (docs/research.md, "The
 * agent mode"): every handler's oracle spec against the correct kernel on
 * each of its reachable cases (they must agree: condition True, return 0,
 * no differing cell), with the time per call; then the oracle spec against
 * each buggy variant's shown code, counting the variants whose bug shows on
 * some reachable case (a differing cell, or condition and return value
 * disagreeing).
 *
 *   npx tsx perf/run-tool.ts
 */
import { concreteStart, runBoth } from '../src/core/eval/agent/run-tool.ts';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { VerifierCaches } from '../src/core/verify/caches.ts';
import { STORED_BANK, reachableCases } from '../src/core/verify/state-bank.ts';

const caches = new VerifierCaches();
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const differs = (r: ReturnType<typeof runBoth>) => !r.ok || (r.outcome.cond === 'True') !== (r.outcome.ret === '0') || r.outcome.rows.length > 0;

const first: number[] = [];
const warm: number[] = [];
let cases = 0;
let disagree = 0;
for (const h of Object.keys(STORED_BANK.handlers)) {
  const spec = oracleSpec(h);
  if (!spec) continue;
  const n = reachableCases(h, caches).length;
  for (let c = 0; c < n; c++) {
    const t0 = performance.now();
    const start = concreteStart(h, { case: c }, caches);
    const r = runBoth(spec, h, '', start.state, start.args, caches);
    (c === 0 ? first : warm).push(performance.now() - t0);
    cases++;
    if (!r.ok || r.outcome.cond !== 'True' || r.outcome.ret !== '0' || r.outcome.rows.length) {
      disagree++;
      console.log(`disagree: ${h} case ${c}`);
    }
  }
}
console.log(`oracle against the kernel: ${cases} cases, ${disagree} disagree; first call per handler median ${median(first).toFixed(0)} ms (max ${Math.max(...first).toFixed(0)}), later calls median ${median(warm).toFixed(1)} ms (max ${Math.max(...warm).toFixed(0)})`);

const buggy = (await loadTasks()).filter((t) => t.bug_count > 0);
let shown = 0;
const t0 = performance.now();
for (const t of buggy) {
  const spec = oracleSpec(t.handler)!;
  const n = reachableCases(t.handler, caches).length;
  for (let c = 0; c < n; c++) {
    const start = concreteStart(t.handler, { case: c }, caches);
    if (differs(runBoth(spec, t.handler, t.impl_override ?? '', start.state, start.args, caches))) {
      shown++;
      break;
    }
  }
}
console.log(`buggy variants: ${buggy.length}; the bug shows on a reachable case in ${shown}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
