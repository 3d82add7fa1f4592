/**
 * Z3's checks on a thread started per check (z3-solver's `solver_check`) against
 * checks in the calling thread (`inThreadChecks`, src/z3/node.ts), on the
 * queries grading makes (docs/measurements.md, "Grading throughput").
 *
 * 1. Grades the answers of FILE as `osvlab grade` does (a task_id line against
 *    its task, so with bug-following; strict too with --lemmas), recording
 *    every query: its SMT-LIB text, its tactics and its timeout.
 * 2. Replays every query in both ways in this one process, alternating which
 *    goes first from one query to the next, so both meet the same load: a
 *    fresh context, the solver, the text asserted, the check, the context
 *    deleted (as src/core/smt/native.ts does it). Prints, per way, the total
 *    wall time, the process's CPU time (user + system, every thread) and the
 *    median query, their ratios, and the answers compared query by query.
 *
 *   npx tsx perf/check-thread.ts [--responses FILE] [--limit N] [--lemmas]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { gradeResponse, handlerOnlyTask, strictChecker } from '../src/core/eval/grade/grade.ts';
import { parseAnswerFile } from '../src/core/eval/files/responses.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { createEngine, warmUp } from '../src/core/smt/solver.ts';
import { QuerySolver } from '../src/core/smt/native.ts';
import { VerifierCaches } from '../src/core/verify/index.ts';
import { ascending, nearestRank } from '../src/core/quantile.ts';
import { inThreadChecks, nodeZ3 } from '../src/z3/node.ts';

const ROOT = join(import.meta.dirname, '..');
function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const file = option('responses') ?? join(ROOT, 'perf/corpus/per-task.jsonl');
const limit = Number(option('limit') ?? Number.MAX_SAFE_INTEGER);
const strict = process.argv.includes('--lemmas');

interface Query {
  tactics: string[];
  text: string;
  timeoutMs?: number;
}

const z3 = await nodeZ3();
const api = z3.Z3;
const queries: Query[] = [];
let pending: string[] = [];
// The API as the engine calls it, taking down what each query is made of (checks in the calling thread).
const inThread = inThreadChecks(z3).Z3;
const recording: typeof api = {
  ...inThread,
  mk_tactic: (c, name) => {
    pending.push(name);
    return api.mk_tactic(c, name);
  },
  mk_solver: (c) => {
    queries.push({ tactics: [], text: '' });
    pending = [];
    return api.mk_solver(c);
  },
  mk_solver_from_tactic: (c, t) => {
    queries.push({ tactics: pending, text: '' });
    pending = [];
    return api.mk_solver_from_tactic(c, t);
  },
  params_set_uint: (c, p, k, v) => {
    if (api.get_symbol_string(c, k) === 'timeout') queries[queries.length - 1].timeoutMs = v;
    return api.params_set_uint(c, p, k, v);
  },
  solver_from_string: (c, s, text) => {
    queries[queries.length - 1].text = text;
    return api.solver_from_string(c, s, text);
  },
};
const engine = createEngine({ Z3: recording });
await warmUp(engine);
queries.length = 0;

const parsed = parseAnswerFile(readFileSync(file, 'utf8'), await loadTasks(), handlerOnlyTask);
const items = parsed.items.slice(0, limit);
const env = { engine, caches: new VerifierCaches() };
const strictCheck = strict ? strictChecker(env) : undefined;
const t0 = performance.now();
for (const item of items) await gradeResponse(item.task, item.response, { ...env, ...(strictCheck ? { strictCheck } : {}) });
console.log(
  `recorded: ${items.length} answers of ${file}${strict ? ' (strict)' : ''} in ${((performance.now() - t0) / 1000).toFixed(1)} s, ` +
    `${queries.length} queries, ${(queries.reduce((n, q) => n + q.text.length, 0) / 1e6).toFixed(1)} MB of SMT-LIB`,
);

type Way = 'thread per check' | 'in this thread';
const ways: Record<Way, typeof api> = { 'thread per check': api, 'in this thread': inThread };
const totals = new Map<Way, { wall: number; cpu: number; each: number[] }>([
  ['thread per check', { wall: 0, cpu: 0, each: [] }],
  ['in this thread', { wall: 0, cpu: 0, each: [] }],
]);
let differ = 0;
const load = loadavg()[0];

async function run(way: Way, q: Query): Promise<string> {
  const t = totals.get(way)!;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const solver = new QuerySolver(ways[way], q.tactics, q.timeoutMs);
  try {
    solver.assert(q.text);
    return await solver.check();
  } finally {
    solver.delete();
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    t.wall += ms;
    t.cpu += (used.user + used.system) / 1000;
    t.each.push(ms);
  }
}

for (const [i, q] of queries.entries()) {
  const order: Way[] = i % 2 === 0 ? ['thread per check', 'in this thread'] : ['in this thread', 'thread per check'];
  const got: Record<string, string> = {};
  for (const way of order) got[way] = await run(way, q);
  // A check that ran into its timeout may end either way; any other answer must agree.
  if (got['thread per check'] !== got['in this thread'] && got['thread per check'] !== 'unknown' && got['in this thread'] !== 'unknown') differ++;
}

const fmt = (x: number) => `${(x / 1000).toFixed(2)} s`;
console.log(`replayed ${queries.length} queries each way, alternating (load average ${load.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after)`);
for (const [way, t] of totals) {
  console.log(`  ${way.padEnd(17)} wall ${fmt(t.wall)}   CPU ${fmt(t.cpu)}   median ${nearestRank(ascending(t.each), 0.5).toFixed(1)} ms`);
}
const a = totals.get('thread per check')!;
const b = totals.get('in this thread')!;
console.log(`thread per check / in this thread: wall ${(a.wall / b.wall).toFixed(2)}x, CPU ${(a.cpu / b.cpu).toFixed(2)}x, median ${(nearestRank(ascending(a.each), 0.5) / nearestRank(ascending(b.each), 0.5)).toFixed(2)}x`);
console.log(`answers that differ (sat/unsat): ${differ}`);
process.exit(differ ? 1 : 0);
