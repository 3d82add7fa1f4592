/**
 * `osvlab bench [--handlers a,b] [--runs N] [--json]`: cold verification time
 * of every handler's oracle (median of N runs), refinement only; and the
 * totals. The kernel is parsed once first (reported separately).
 */
import { oracleSpec } from '../../core/kernel/content.ts';
import { HANDLERS, findHandler } from '../../core/kernel/handlers.ts';
import { clearVerifierCaches, loadProgram, verify } from '../../core/verify/index.ts';
import { UsageError, intOption, parseArgs } from '../args.ts';
import { nodeEngine } from '../z3-node.ts';

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i];
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['handlers', 'runs', 'timeout'], flags: ['json'] });
  const runs = Math.max(1, intOption(args, 'runs', 3));
  const timeoutMs = intOption(args, 'timeout', 60000);
  const names = args.values.get('handlers')?.split(',').map((s) => s.trim()).filter(Boolean) ?? HANDLERS.map((h) => h.name);
  for (const n of names) if (!findHandler(n)) throw new UsageError(`unknown handler '${n}'`);
  const engine = await nodeEngine();
  const t0 = Date.now();
  loadProgram('');
  const parseMs = Date.now() - t0;
  const rows: { handler: string; median: number; runs: number[]; status: string }[] = [];
  for (const name of names) {
    const h = findHandler(name)!;
    const spec = oracleSpec(h.name);
    if (!spec) continue;
    const times: number[] = [];
    let status = '';
    for (let i = 0; i < runs; i++) {
      clearVerifierCaches();
      const started = performance.now();
      const v = await verify({ handler: h.name, spec, timeoutMs }, { engine });
      times.push(Math.round(performance.now() - started));
      status = v.status;
    }
    const row = { handler: h.name, median: quantile(times, 0.5), runs: times, status };
    rows.push(row);
    if (!args.flags.has('json')) process.stdout.write(`${h.name.padEnd(26)} ${String(row.median).padStart(7)} ms  ${status}  [${times.join(', ')}]\n`);
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
  if (args.flags.has('json')) process.stdout.write(`${JSON.stringify({ rows, summary })}\n`);
  else {
    process.stdout.write(`\nkernel parse: ${parseMs} ms\nrefinement over ${summary.handlers} handlers: median ${summary.median} ms, p90 ${summary.p90} ms, total ${summary.total} ms (sum of medians)\n`);
    if (summary.notVerified.length) process.stdout.write(`not verified: ${summary.notVerified.join(', ')}\n`);
  }
  return summary.notVerified.length ? 1 : 0;
}
