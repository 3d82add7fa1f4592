/**
 * `osvlab report DIR [--json]`: the metrics of a run directory. The JSON has
 * `pass_at_k`, `rates` and per-attempt `category`, plus everything else
 * computeMetrics gives.
 */
import { computeMetrics, type RunMetrics } from '../../core/bench/metrics.ts';
import { OSVBENCH_PASS1, REFERENCE_LABEL } from '../../core/bench/reference.ts';
import type { RunStore } from '../../core/bench/run-types.ts';
import type { Task } from '../../core/bench/task.ts';
import { loadTasks } from '../../core/bench/tasks.ts';
import { JsonlRepository } from '../../store/jsonl.ts';
import { UsageError, parseArgs } from '../args.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function printReport(store: RunStore, runId: string, tasks: readonly Task[], json: boolean): Promise<RunMetrics> {
  const run = await store.getRun(runId);
  if (!run) throw new UsageError(`no run ${runId}`);
  const attempts = await store.listAttempts(runId);
  const selected = tasks.filter((t) => run.config.tasks.includes(t.id));
  const m = computeMetrics(selected, attempts);
  if (json) {
    const out = {
      run: { id: run.id, model: run.config.model, provider: run.config.provider, status: run.status, verifier: run.provenance.verifier },
      pass_at_k: m.passAtK,
      rates: m.rates,
      metrics: m,
      attempts: attempts.map((a) => ({ id: a.id, task_id: a.taskId, sample: a.sample, round: a.round, category: a.grade?.category ?? (a.error ? 'error' : null) })),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return m;
  }
  const lines: string[] = [];
  lines.push(`run ${run.id}: ${run.config.provider}/${run.config.model}, ${m.tasks} tasks, ${m.samples} first answers, ${run.config.shots}-shot, status ${run.status}`);
  lines.push(`pass@k: ${Object.entries(m.passAtK).map(([k, v]) => `pass@${k} ${pct(v)}`).join('  ') || '(none)'}`);
  for (const [k, why] of Object.entries(m.passAtKSkipped)) lines.push(`  pass@${k} skipped: ${why}`);
  lines.push(`outcomes: ${Object.entries(m.rates).map(([k, v]) => `${k} ${pct(v)}`).join('  ')}`);
  lines.push(`strict: ${pct(m.strictRate)}   bug-following: ${m.bugFollowing.following}/${m.bugFollowing.samples} (${pct(m.bugFollowing.rate)})   pass after repair: ${pct(m.passAfterRepair)}`);
  for (const r of m.repair) lines.push(`repair round ${r.round}: ${r.fixed}/${r.attempted} fixed, ${r.stillFailing} still failing`);
  lines.push('by bug class:');
  for (const [k, g] of Object.entries(m.byBugClass)) if (g.tasks) lines.push(`  ${k.padEnd(20)} ${pct(g.pass1).padStart(7)}  (${g.tasks} tasks)`);
  lines.push('by bug count:');
  for (const [k, g] of Object.entries(m.byBugCount)) if (g.tasks) lines.push(`  ${k.padEnd(20)} ${pct(g.pass1).padStart(7)}  (${g.tasks} tasks)`);
  lines.push(`tokens: ${m.tokens.input} in, ${m.tokens.output} out   cost: $${m.cost.usd.toFixed(4)}${m.cost.unpriced ? ` (${m.cost.unpriced} attempts unpriced)` : ''}   latency: median ${m.latency.median ?? '-'} ms, p90 ${m.latency.p90 ?? '-'} ms`);
  lines.push('', `reference (${REFERENCE_LABEL}), Pass@1:`);
  for (const r of OSVBENCH_PASS1) lines.push(`  ${r.model.padEnd(20)} ${r.total.toFixed(2)}%`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return m;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { flags: ['json'] });
  const [dir, ...extra] = args.positionals;
  if (!dir) throw new UsageError('which run directory? e.g. osvlab report .osvlab/runs/gpt-4o-1a2b3c4d5e6f');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const store = await JsonlRepository.open(dir);
  try {
    const runs = await store.listRuns();
    if (runs.length === 0) throw new UsageError(`${dir} holds no run`);
    await printReport(store, runs[0].id, await loadTasks(), args.flags.has('json'));
    return 0;
  } finally {
    await store.close();
  }
}
