/**
 * `osvlab bench` (options: declarations.ts): cold verification time of every handler's oracle (median of N runs) and the
 * totals; with `--lemmas`, the lemma checks (spec invariants and every
 * lemma) are timed too, as grading with lemmas runs them (the oracle's step reuses
 * its committed proof, docs/lemmas.md), and summarised separately, with the
 * ratio to refinement; `--full` (with `--lemmas`) also times the full
 * lemma check (no proof reused). The kernel is parsed once first
 * (reported separately). The corpus bench is bench-corpus.ts.
 */
import { oracleSpec } from '../core/kernel/content.ts';
import { ascending, nearestRank } from '../core/quantile.ts';
import { HANDLERS, findHandler, requireHandler } from '../core/kernel/handlers.ts';
import { proveSpecLemmas, oracleProofKey } from '../core/verify/declarative.ts';
import { clearVerifierCaches, loadProgram, verify } from '../core/verify/index.ts';
import type { CommandOptions } from './declarations.ts';
import { nodeEnv } from '../z3/node.ts';

/** The nearest-rank q-quantile of `xs` (core/quantile.ts); NaN when empty. */
const quantile = (xs: readonly number[], q: number): number => nearestRank(ascending(xs), q);

interface Timing {
  readonly median: number;
  readonly runs: number[];
  /** The outcome of the last run. */
  readonly status: string;
}

/** Runs `job` `runs` times, one after another (each after an untimed `setup`); the wall time of each and their median. */
async function timeRuns(runs: number, job: () => Promise<string>, setup?: () => void): Promise<Timing> {
  const times: number[] = [];
  let status = '';
  for (let i = 0; i < runs; i++) {
    setup?.();
    const started = performance.now();
    status = await job();
    times.push(Math.round(performance.now() - started));
  }
  return { median: quantile(times, 0.5), runs: times, status };
}

/** `osvlab bench` without `--corpus`: prints the table, returns the exit code (1: an oracle not verified or not proved). */
export async function benchOracles(o: CommandOptions<'bench'>): Promise<number> {
  const lemmas = o.lemmas;
  const full = lemmas && o.full;
  const runs = Math.max(1, o.runs);
  const timeoutMs = o.budget;
  const names = o.handlers?.split(',').map((s) => s.trim()).filter(Boolean) ?? HANDLERS.map((h) => h.name);
  for (const n of names) requireHandler(n);
  const env = await nodeEnv();
  const t0 = Date.now();
  loadProgram(env.caches);
  const parseMs = Date.now() - t0;
  const rows: (Timing & { handler: string; lemmas?: Timing; full?: Timing })[] = [];
  const json = o.json;
  for (const name of names) {
    const h = findHandler(name)!;
    const spec = oracleSpec(h.name);
    if (!spec) continue;
    // Cold: nothing kept from an earlier run but the parsed kernel (timed apart, above).
    const refinement = await timeRuns(
      runs,
      async () => (await verify({ handler: h.name, spec, timeoutMs }, env)).status,
      () => {
        clearVerifierCaches(env.caches);
        loadProgram(env.caches);
      },
    );
    // proveSpecLemmas is its own engine job.
    // Cold: no proof memoised by an earlier run (the committed ones stay);
    // the oracle's step and its proof key are made again untimed, as the
    // parsed kernel is above.
    const declarative = lemmas
      ? await timeRuns(
          runs,
          async () => (await proveSpecLemmas(h.name, spec, env, { timeoutMs })).status,
          () => {
            clearVerifierCaches(env.caches);
            oracleProofKey(env.caches, h.name);
          },
        )
      : undefined;
    const fullCheck = full ? await timeRuns(runs, async () => (await proveSpecLemmas(h.name, spec, env, { timeoutMs, reuse: false })).status) : undefined;
    const row = { handler: h.name, ...refinement, ...(declarative ? { lemmas: declarative } : {}), ...(fullCheck ? { full: fullCheck } : {}) };
    rows.push(row);
    if (!json) {
      const l = row.lemmas ? `   lemmas ${String(row.lemmas.median).padStart(7)} ms  ${row.lemmas.status}  [${row.lemmas.runs.join(', ')}]` : '';
      const f = row.full ? `   full ${String(row.full.median).padStart(7)} ms  ${row.full.status}  [${row.full.runs.join(', ')}]` : '';
      process.stdout.write(`${h.name.padEnd(26)} ${String(row.median).padStart(7)} ms  ${row.status}  [${row.runs.join(', ')}]${l}${f}\n`);
    }
  }
  const medians = rows.map((r) => r.median);
  const summary = {
    handlers: rows.length,
    parseMs,
    median: quantile(medians, 0.5),
    p90: quantile(medians, 0.9),
    total: medians.reduce((a, b) => a + b, 0),
    notVerified: rows.filter((r) => r.status !== 'verified').map((r) => r.handler),
  };
  const lemmaMedians = rows.flatMap((r) => (r.lemmas ? [r.lemmas.median] : []));
  const fullMedians = rows.flatMap((r) => (r.full ? [r.full.median] : []));
  const lemmaTotal = lemmaMedians.reduce((a, b) => a + b, 0);
  const lemmaSummary = lemmas
    ? {
        median: quantile(lemmaMedians, 0.5),
        p90: quantile(lemmaMedians, 0.9),
        max: Math.max(...lemmaMedians),
        total: lemmaTotal,
        /** Total of the lemma checks over the total of refinement. */
        ratio: summary.total > 0 ? lemmaTotal / summary.total : NaN,
        notProved: rows.filter((r) => (r.lemmas && r.lemmas.status !== 'proved') || (r.full && r.full.status !== 'proved')).map((r) => r.handler),
        ...(full ? { full: { median: quantile(fullMedians, 0.5), p90: quantile(fullMedians, 0.9), max: Math.max(...fullMedians), total: fullMedians.reduce((a, b) => a + b, 0) } } : {}),
      }
    : undefined;
  if (json) process.stdout.write(`${JSON.stringify({ rows, summary, ...(lemmaSummary ? { lemmas: lemmaSummary } : {}) })}\n`);
  else {
    process.stdout.write(`\nkernel parse: ${parseMs} ms\nrefinement over ${summary.handlers} handlers: median ${summary.median} ms, p90 ${summary.p90} ms, total ${summary.total} ms (sum of medians)\n`);
    if (summary.notVerified.length) process.stdout.write(`not verified: ${summary.notVerified.join(', ')}\n`);
    if (lemmaSummary) {
      process.stdout.write(
        `lemmas over ${lemmaMedians.length} handlers: median ${lemmaSummary.median} ms, p90 ${lemmaSummary.p90} ms, max ${lemmaSummary.max} ms, total ${lemmaSummary.total} ms (sum of medians), ${lemmaSummary.ratio.toFixed(2)}x refinement\n`,
      );
      const fs = lemmaSummary.full;
      if (fs) process.stdout.write(`full lemma check (no proof reused): median ${fs.median} ms, p90 ${fs.p90} ms, max ${fs.max} ms, total ${fs.total} ms, ${(fs.total / summary.total).toFixed(2)}x refinement\n`);
      if (lemmaSummary.notProved.length) process.stdout.write(`lemmas not proved: ${lemmaSummary.notProved.join(', ')}\n`);
    }
  }
  return summary.notVerified.length || lemmaSummary?.notProved.length ? 1 : 0;
}

