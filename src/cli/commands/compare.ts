/**
 * `osvlab compare A B` (options: ../declarations.ts): paired comparison of two runs (run directories, or run files exported from the
 * Runs page or by merge --export) on the tasks both answered (see
 * src/core/eval/stats/compare-runs.ts). Tasks left out are always listed with the
 * reason. Differences are B - A. OSVBench's published Pass@1 figures follow,
 * labelled as the paper's numbers on its own kernel. Two runs that pair no
 * task print why, and no statistics (exit 3).
 */
import { type CompareSide, type PairedStats, type RunComparison, compareRuns } from '../../core/eval/stats/compare-runs.ts';
import { roundTable, tableText } from '../../core/eval/stats/table.ts';
import { OSVBENCH_PASS1, REFERENCE_LABEL } from '../../core/eval/stats/published.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { UsageError } from '../args.ts';
import { parseCommand } from '../declarations.ts';
import { readStoredRun } from '../stored-run.ts';
import { groupByMeaning } from '../meaning-groups.ts';
import type { Determinism } from '../../core/eval/stats/determinism.ts';
import { taskFactsOf } from '../../core/eval/session/task-facts.ts';
import type { Task } from '../../core/tasks/task.ts';

async function side(path: string): Promise<CompareSide> {
  const { run, attempts } = await readStoredRun(path);
  if (!run) throw new UsageError(`${path} holds no run`);
  return { run, attempts };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pts = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
const pval = (p: number) => (p < 0.0001 ? p.toExponential(2) : p.toFixed(4));

function row(label: string, s: PairedStats): string {
  const ci = s.ci95 ? `[${pts(s.ci95[0])}, ${pts(s.ci95[1])}]` : '-';
  return `  ${label.padEnd(20)} ${String(s.tasks).padStart(4)}  ${pct(s.pass1A).padStart(6)}  ${pct(s.pass1B).padStart(6)}  ${pts(s.diff).padStart(6)}  ${ci.padEnd(16)} ${String(s.onlyA).padStart(3)} ${String(s.onlyB).padStart(3)}  ${pval(s.mcnemarP)}`;
}

/** Round by round (docs/research.md): passed by each repair round, paired by task; nothing when neither run repairs. */
function roundLines(c: RunComparison): string[] {
  const { roundA, roundB, stats: s } = c.afterLastRound;
  const ci = s.ci95 ? `[${pts(s.ci95[0])}, ${pts(s.ci95[1])}]` : '-';
  const last =
    roundA || roundB
      ? [`after each run's own last round (A round ${roundA}, B round ${roundB}), ${s.tasks} tasks: A ${pct(s.pass1A)}, B ${pct(s.pass1B)}; B - A = ${pts(s.diff)} points, 95% CI ${ci}; McNemar: A only ${s.onlyA}, B only ${s.onlyB}, p = ${pval(s.mcnemarP)}`]
      : [];
  if (c.byRound.length <= 1) return last;
  return ['by repair round (passed by the end of the round, sample 0 of each task):', ...tableText(roundTable(c.byRound)), ...last];
}

/** A run's samples grouped by meaning (meaning-groups.ts). */
function meaningOf(s: CompareSide, tasks: readonly Task[]): Promise<Determinism> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return groupByMeaning(s.attempts, (id) => taskFactsOf(id, (x) => byId.get(x)).handler);
}

/** The tasks left out of the pairs, each with the reason; nothing when none is. */
function leftOut(c: RunComparison): string[] {
  return c.dropped.length ? ['left out:', ...c.dropped.map((d) => `  ${d.task.padEnd(28)} ${d.reason}`)] : [];
}

export async function run(argv: string[]): Promise<number> {
  const { args, options } = parseCommand('compare', argv);
  const [a, b, ...extra] = args.positionals;
  if (!a || !b) throw new UsageError('which two runs (run directories or run files)? e.g. osvlab compare runs/gpt-4o-... runs/claude-...');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const resamples = options.resamples;
  if (resamples < 100) throw new UsageError('--resamples must be at least 100');
  const tasks = await loadTasks();
  const [sa, sb] = [await side(a), await side(b)];
  const c = compareRuns(sa, sb, tasks, { resamples, seed: options.seed });
  // Grouping by meaning asks the solver: done only where it is printed (not before 'nothing to compare').
  const meaning = async () => ({ a: await meaningOf(sa, tasks), b: await meaningOf(sb, tasks) });
  if (options.json) {
    const determinism = await meaning();
    const figures = (d: Determinism) => ({ mean_largest_share: d.mean_largest_share, consensus_pass_at_1: d.consensus_pass_at_1, queries: d.queries });
    process.stdout.write(`${JSON.stringify({ ...c, determinism: { a: figures(determinism.a), b: figures(determinism.b) }, reference: { label: REFERENCE_LABEL, pass1: OSVBENCH_PASS1 } })}\n`);
    return c.nothing ? 3 : 0;
  }
  const name = (s: typeof c.a) => `${s.name ?? s.id} (${s.model})`;
  const o = c.overall;
  const L: string[] = [];
  L.push(`A: ${name(c.a)}   B: ${name(c.b)}`);
  if (c.nothing) {
    // Statistics over zero pairs would read as a result ("B - A = +0.0 points, p = 1"): none are printed.
    L.push(`nothing to compare: ${c.nothing}`, ...leftOut(c));
    process.stdout.write(`${L.join('\n')}\n`);
    return 3;
  }
  L.push(`paired tasks (both runs have a graded first answer): ${o.tasks}${c.dropped.length ? `; ${c.dropped.length} left out, listed below` : ''}`);
  for (const w of c.warnings) L.push(`warning: ${w}`);
  L.push(`pass@1: A ${pct(o.pass1A)}, B ${pct(o.pass1B)}; B - A = ${pts(o.diff)} points, 95% CI ${o.ci95 ? `[${pts(o.ci95[0])}, ${pts(o.ci95[1])}]` : '-'} (paired bootstrap over tasks, ${c.bootstrap.resamples} resamples, seed "${c.bootstrap.seed}")`);
  L.push(`McNemar exact test: pass in A only ${o.onlyA}, in B only ${o.onlyB}, two-sided p = ${pval(o.mcnemarP)}`);
  L.push(`flips, pass in A only: ${c.flips.onlyA.join(' ') || '(none)'}`);
  L.push(`flips, pass in B only: ${c.flips.onlyB.join(' ') || '(none)'}`);
  L.push(...roundLines(c));
  const determinism = await meaning();
  L.push(`determinism (docs/research.md §8): mean largest class A ${pct(determinism.a.mean_largest_share)}, B ${pct(determinism.b.mean_largest_share)}; consensus pass@1 A ${pct(determinism.a.consensus_pass_at_1)}, B ${pct(determinism.b.consensus_pass_at_1)}`);
  const head = `  ${''.padEnd(20)} ${'n'.padStart(4)}  ${'A'.padStart(6)}  ${'B'.padStart(6)}  ${'B-A'.padStart(6)}  ${'95% CI'.padEnd(16)} ${'A+'.padStart(3)} ${'B+'.padStart(3)}  McNemar p`;
  L.push('by bug class:', head);
  for (const [k, s] of Object.entries(c.byBugClass)) L.push(row(k, s));
  L.push('by bug count:', head);
  for (const [k, s] of Object.entries(c.byBugCount)) L.push(row(k === '0' ? '0 (correct)' : k, s));
  L.push(...leftOut(c));
  L.push('', `reference (${REFERENCE_LABEL}; published numbers on upstream's kernel, not runs of this app), Pass@1:`);
  for (const r of OSVBENCH_PASS1) L.push(`  ${r.model.padEnd(26)} ${r.total.toFixed(2)}%`);
  process.stdout.write(`${L.join('\n')}\n`);
  return 0;
}
