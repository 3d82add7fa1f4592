/**
 * The verifier worker's share of the first verdict on the page's timeline:
 * its `WorkerTimings` (core/service/contract.ts, ms since the epoch) as
 * `osvlab:` performance marks, each at the end of its phase with the phase's
 * duration in `detail.ms`, beside the page's own (`osvlab:app-script`,
 * `osvlab:verdict`, `osvlab:paint`). perf/app-load.ts reads them
 * (docs/app.md, "Tests and benchmark"); nothing else depends on them.
 */
import type { WorkerTimings } from '../core/service/contract.ts';

/** Marks `name` at `at` (ms since the epoch) with `ms` as its duration. */
function mark(name: string, at: number, ms: number): void {
  const startTime = at - performance.timeOrigin;
  if (startTime < 0) return;
  performance.mark(`osvlab:${name}`, { startTime, detail: { ms: Math.round(ms) } });
}

/** Puts `t` on this page's timeline once (a later worker's timings are not the first verdict's). */
export function markWorkerPhases(t: WorkerTimings): void {
  if (performance.getEntriesByName('osvlab:worker-start', 'mark').length) return;
  if (t.created !== undefined) mark('worker-created', t.created, 0);
  mark('worker-start', t.started, t.created === undefined ? 0 : t.started - t.created);
  if (t.kernel) mark('kernel', t.kernel.end, t.kernel.end - t.kernel.start);
  const v = t.withoutSolver;
  if (!v) return;
  const p = v.phases;
  // The verification's own phases; what its phase clock did not charge to any is the lookup of committed proofs (and the queue).
  const charged = p.parse + p.spec + p.c + p.terms + p.smtlib + p.solver + p.replay;
  mark('verify-asked', v.start, 0);
  mark('spec-eval', v.end, p.parse + p.spec);
  mark('kernel-run', v.end, p.c);
  mark('obligations', v.end, p.terms + p.replay);
  mark('proof-lookup', v.end, Math.max(0, v.end - v.start - charged));
  mark('verify-worker', v.end, v.end - v.start);
}
