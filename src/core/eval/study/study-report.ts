/**
 * A study's report, from its cells' runs (docs/research.md): one row per
 * cell (its levels, pass@1 after the first answer and after the last
 * repair round with its interval, the fixes repairs made, tokens and cost),
 * the paired comparison, round by round, of every two cells that differ in
 * one factor, each cell's repair curve, and, where the caller grouped each
 * cell's first answers by meaning (stats/determinism.ts, which needs the
 * solver), each cell's determinism figures, and the agent cells' figures
 * as `report` gives them for an agent run (stats/agent-metrics.ts). The levels are read from each
 * run's config, so the report can be rebuilt from the runs alone (the Runs
 * page) and reads the same wherever the runs were made.
 */
import type { AttemptRecord, RunRecord, RunStatus } from '../run/run-types.ts';
import { DEFAULT_FEEDBACK, DEFAULT_PROMPT } from '../session/config.ts';
import { type RoundComparison, compareByRound } from '../stats/compare-runs.ts';
import type { Determinism } from '../stats/determinism.ts';
import { type RunMetrics, computeMetrics } from '../stats/metrics.ts';
import { agentMetricsLines } from '../stats/agent-metrics.ts';
import type { TaskFacts } from '../stats/outcome.ts';
import { type Table, curveTable, pValue, pct, pctInterval, pts, ptsInterval, tableText, usd, whole } from '../stats/table.ts';
import { type CellLevels, FACTORS, type Factor, type StudyCell, levelText, oneFactorPairs } from './grid.ts';

/** One cell's run, as the report reads it. */
export interface CellRun {
  readonly index: number;
  readonly label: string;
  readonly run: RunRecord;
  readonly attempts: readonly AttemptRecord[];
}

export interface StudyRow {
  readonly index: number;
  readonly label: string;
  readonly levels: CellLevels;
  readonly runId: string;
  readonly status: RunStatus;
  readonly metrics: RunMetrics;
  /** The cell's first answers grouped by meaning, when the caller grouped them. */
  readonly determinism?: CellDeterminism;
}

/** A cell's run-level determinism figures (docs/research.md, "Determinism"). */
export interface CellDeterminism {
  readonly mean_largest_share: number;
  readonly consensus_pass_at_1: number;
  /** Tasks with more than one class (behaviour), of the tasks grouped. */
  readonly multi: number;
  readonly tasks: number;
  readonly queries: number;
}

export interface StudyPair {
  readonly factor: Factor;
  /** Cell indexes (StudyRow.index). */
  readonly a: number;
  readonly b: number;
  readonly byRound: readonly RoundComparison[];
}

export interface StudyReport {
  readonly name: string;
  readonly id: string;
  /** The factors with more than one level among the rows. */
  readonly factors: readonly Factor[];
  readonly rows: readonly StudyRow[];
  readonly pairs: readonly StudyPair[];
}

export interface StudyReportOptions {
  readonly resamples?: number;
  readonly seed?: string;
  /** Each cell's runs grouped by meaning, by cell index (absent: no determinism figures). */
  readonly determinism?: ReadonlyMap<number, Determinism>;
}

/** A run's levels, from its config. */
function levelsOfRun(run: RunRecord): CellLevels {
  const c = run.config;
  return {
    model: { provider: c.provider, model: c.model, baseUrl: c.baseUrl },
    prompt: c.prompt ?? DEFAULT_PROMPT,
    ...(c.rename ? { names: c.rename } : {}),
    feedback: c.feedback ?? DEFAULT_FEEDBACK,
    shots: c.shots,
    samples: c.n,
    ...(c.agent ? { agent: c.agent } : {}),
  };
}

/** The report of a study's cell runs; `tasks` gives the facts of the tasks the runs name. */
export function studyReport(head: { readonly name: string; readonly id: string }, cells: readonly CellRun[], tasks: readonly TaskFacts[], options: StudyReportOptions = {}): StudyReport {
  const resamples = options.resamples ?? 2000;
  const seed = options.seed ?? `osvlab-study/${head.id}`;
  const sorted = [...cells].sort((x, y) => x.index - y.index);
  const rows: StudyRow[] = sorted.map((c) => {
    const facts = factsOf(c.run, tasks);
    return {
      index: c.index,
      label: c.label,
      levels: levelsOfRun(c.run),
      runId: c.run.id,
      status: c.run.status,
      metrics: computeMetrics(facts, c.attempts, { n: c.run.config.n, rounds: c.run.config.repairRounds }),
      ...(options.determinism?.has(c.index) ? { determinism: cellDeterminism(options.determinism.get(c.index)!) } : {}),
    };
  });
  const gridCells: StudyCell[] = rows.map((r) => ({ index: r.index, label: r.label, levels: r.levels }));
  const factors = FACTORS.filter((f) => new Set(rows.map((r) => levelText(f, r.levels) + (f === 'model' ? r.levels.model.baseUrl : ''))).size > 1);
  const pairs: StudyPair[] = oneFactorPairs(gridCells).map((p) => {
    const A = sorted.find((c) => c.index === gridCells[p.a].index)!;
    const B = sorted.find((c) => c.index === gridCells[p.b].index)!;
    const ids = A.run.config.tasks.filter((id) => B.run.config.tasks.includes(id) && A.run.taskHashes[id] === B.run.taskHashes[id]);
    const sides = [{ run: A.run, attempts: A.attempts }, { run: B.run, attempts: B.attempts }] as const;
    return { factor: p.factor, a: A.index, b: B.index, byRound: compareByRound(sides[0], sides[1], ids, resamples, `${seed}/${A.index}-${B.index}`) };
  });
  return { name: head.name, id: head.id, factors, rows, pairs };
}

function cellDeterminism(d: Determinism): CellDeterminism {
  const counted = d.tasks.filter((t) => t.classes.length > 0);
  return {
    mean_largest_share: d.mean_largest_share,
    consensus_pass_at_1: d.consensus_pass_at_1,
    multi: counted.filter((t) => t.classes.length > 1).length,
    tasks: counted.length,
    queries: d.queries,
  };
}

/** The task facts of a run's tasks; tasks this build lacks count by handler name. */
function factsOf(run: RunRecord, tasks: readonly TaskFacts[]): TaskFacts[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return run.config.tasks.map((id) => byId.get(id) ?? { id, handler: id.replace(/-v\d+$/, ''), bug_classes: [], bug_count: 0 });
}

const FACTOR_HEAD: Readonly<Record<Factor, string>> = { model: 'model', prompt: 'prompt', names: 'names', feedback: 'feedback', shots: 'shots', samples: 'n', mode: 'mode' };

/** The factor columns: the varying ones, or the model when nothing varies. */
function factorColumns(report: StudyReport): readonly Factor[] {
  return report.factors.length ? report.factors : ['model'];
}

/** The table of every cell. */
export function cellTable(report: StudyReport): Table {
  const cols = factorColumns(report);
  const grouped = report.rows.some((r) => r.determinism);
  return {
    header: ['#', ...cols.map((f) => FACTOR_HEAD[f]), 'tasks', 'pass@1 r0', 'pass@1 last', '95% CI', ...(grouped ? ['largest', 'consensus'] : []), 'fixed', 'tokens', 'tokens/fix', 'cost', 'status'],
    rows: report.rows.map((r) => {
      const points = r.metrics.curve.points;
      const first = points[0];
      const last = points[points.length - 1];
      const repairs = points.slice(1);
      const fixed = repairs.reduce((s, p) => s + p.fixed, 0);
      const repairTokens = repairs.reduce((s, p) => s + p.tokens.input + p.tokens.output, 0);
      return [
        String(r.index + 1),
        ...cols.map((f) => levelText(f, r.levels)),
        String(r.metrics.tasks),
        pct(first.pass1),
        `${pct(last.pass1)} (r${last.round})`,
        pctInterval(last.ci95),
        ...(grouped ? (r.determinism ? [pct(r.determinism.mean_largest_share), pct(r.determinism.consensus_pass_at_1)] : ['-', '-']) : []),
        String(fixed),
        String(r.metrics.tokens.input + r.metrics.tokens.output),
        whole(fixed ? repairTokens / fixed : null),
        usd(r.metrics.cost.usd),
        r.status,
      ];
    }),
  };
}

/**
 * The agent cells' figures, one row each (the cells that ran in the agent
 * mode and finished a trajectory): trajectories, mean turns, how they ended,
 * the share solved within the fewest and the most turns, tool calls per task
 * by tool, tokens and cost per pass. undefined when no cell is an agent's.
 */
export function agentTable(report: StudyReport): Table | undefined {
  const rows = report.rows.filter((r) => r.metrics.agent);
  if (rows.length === 0) return undefined;
  return {
    header: ['#', 'cell', 'trajectories', 'turns', 'answered', 'submitted', 'exhausted', 'solved by t', 'tool calls/task', 'tokens/pass', 'cost/pass'],
    rows: rows.map((r) => {
      const a = r.metrics.agent!;
      const calls = Object.entries(a.callsPerTask).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ') || 'none';
      return [
        String(r.index + 1),
        r.label,
        String(a.trajectories),
        a.meanTurns.toFixed(2),
        String(a.ends.answered),
        String(a.ends.submitted),
        String(a.ends['turns-exhausted']),
        a.solvedWithin.map((x) => `${x.turns}: ${pct(x.share)}`).join(' '),
        calls,
        whole(a.tokensPerPass),
        a.costPerPass === null ? '-' : usd(a.costPerPass),
      ];
    }),
  };
}

/** The paired comparisons: after the first answer and after the last round both cells have. */
export function pairTable(report: StudyReport): Table {
  const label = (i: number) => `${i + 1}`;
  return {
    header: ['factor', 'A', 'B', 'tasks', 'r0 B-A', 'last', 'A', 'B', 'B-A', '95% CI', 'McNemar p'],
    rows: report.pairs.map((p) => {
      const first = p.byRound[0].stats;
      const lastRound = p.byRound[p.byRound.length - 1];
      const s = lastRound.stats;
      return [FACTOR_HEAD[p.factor], label(p.a), label(p.b), String(s.tasks), pts(first.diff), `r${lastRound.round}`, pct(s.pass1A), pct(s.pass1B), pts(s.diff), ptsInterval(s.ci95), pValue(s.mcnemarP)];
    }),
  };
}

/**
 * The contamination study's report lines (docs/rename.md): for every pair
 * of cells that differ in their names only, the **memory gap** (pass@1 on
 * hv6's own names minus on synonym names: what the model gains from names
 * it may remember) and the **meaning gap** (synonym minus opaque names:
 * what it gains from names that still mean something), first answers
 * paired by task, with the pair's 95% CI and McNemar p. A pair of opaque
 * and hv6 names, or of two seeds, is in the pair table only.
 */
export function namesGaps(report: StudyReport): string[] {
  const rowOf = (i: number) => report.rows.find((r) => r.index === i)!;
  const out: string[] = [];
  for (const p of report.pairs) {
    if (p.factor !== 'names') continue;
    const [a, b] = [rowOf(p.a), rowOf(p.b)];
    const style = (r: StudyRow) => r.levels.names?.style ?? 'hv6';
    const kinds: Record<string, [string, string]> = { memory: ['hv6', 'synonym'], meaning: ['synonym', 'opaque'] };
    for (const [kind, [from, to]] of Object.entries(kinds)) {
      const flipped = style(a) === to && style(b) === from;
      if (!flipped && !(style(a) === from && style(b) === to)) continue;
      const s = p.byRound[0].stats;
      // The gap is the first minus the second of its two namings; the pair's diff is B - A.
      const gap = flipped ? s.diff : -s.diff;
      const ci = s.ci95 && (flipped ? s.ci95 : ([-s.ci95[1], -s.ci95[0]] as const));
      const [first, second] = flipped ? [b, a] : [a, b];
      const [p1, p2] = flipped ? [s.pass1B, s.pass1A] : [s.pass1A, s.pass1B];
      const others = report.factors.filter((f) => f !== 'names').map((f) => levelText(f, a.levels));
      out.push(
        `${kind} gap (${levelText('names', first.levels)} - ${levelText('names', second.levels)}${others.length ? `, ${others.join(' / ')}` : ''}): ` +
          `${pts(gap)} pts ${ptsInterval(ci)}, McNemar p ${pValue(s.mcnemarP)}; pass@1 ${pct(p1)} vs ${pct(p2)} over ${s.tasks} tasks`,
      );
    }
  }
  return out;
}

/**
 * Which names the cells' model saw (docs/rename.md), when any cell saw a
 * renaming: one renaming for every cell (a study run with `--rename`, or a
 * file with one renamed level of `names`), or the namings the cells vary
 * over. undefined when every cell saw hv6's own names.
 */
export function namesLine(report: StudyReport): string | undefined {
  if (report.rows.every((r) => !r.levels.names)) return undefined;
  const levels = [...new Set(report.rows.map((r) => levelText('names', r.levels)))];
  const how = 'the model saw renamed names; its answers were graded renamed back, docs/rename.md';
  return levels.length === 1 ? `names: ${levels[0]} in every cell (${how})` : `names: ${levels.join(', ')} by cell (${how})`;
}

/** The whole report as terminal text. */
export function studyReportText(report: StudyReport): string {
  const L: string[] = [];
  L.push(`study ${report.name} (${report.id}): ${report.rows.length} cells${report.factors.length ? `, varying ${report.factors.map((f) => FACTOR_HEAD[f]).join(', ')}` : ''}`);
  const names = namesLine(report);
  if (names) L.push(names);
  L.push('', 'cells (pass@1 after the first answer and after the last repair round; fixed: chains the repairs fixed; tokens/fix: repair tokens per fix):');
  L.push(...tableText(cellTable(report)));
  if (report.rows.some((r) => r.determinism)) {
    L.push('', "determinism (first answers grouped by meaning, docs/research.md): largest = mean share of a task's samples in its largest class; consensus = pass@1 of the largest class's answer, no oracle:");
    for (const r of report.rows) {
      const d = r.determinism;
      if (d) L.push(`  ${r.index + 1}. ${d.multi} of ${d.tasks} tasks have more than one behaviour; ${d.queries} equivalence queries`);
    }
  }
  if (report.pairs.length) {
    L.push('', 'cells that differ in one factor (paired by task, sample 0; B - A in points; 95% CI by paired bootstrap over tasks):');
    L.push(...tableText(pairTable(report)));
  }
  const gaps = namesGaps(report);
  if (gaps.length) L.push('', 'what the names are worth (first answers; points; docs/rename.md):', ...gaps.map((g) => `  ${g}`));
  if (report.rows.some((r) => r.metrics.agent)) {
    L.push('', 'agent cells (the model called the verifier as a tool; docs/research.md, "The agent mode"):');
    for (const r of report.rows) if (r.metrics.agent) L.push(`  ${r.index + 1}. ${r.label}`, ...agentMetricsLines(r.metrics.agent).map((l) => `    ${l}`));
  }
  L.push('', 'repair curves (pass@1 after each round, its 95% interval over tasks, chains fixed and left open, tokens of the round and per fix):');
  for (const r of report.rows) {
    L.push(`  ${r.index + 1}. ${r.label}   (run ${r.runId}, ${r.status})`);
    L.push(...tableText(curveTable(r.metrics.curve), 4));
  }
  return `${L.join('\n')}\n`;
}
