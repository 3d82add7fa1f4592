/**
 * `osvlab report DIR` (options: ../declarations.ts): the metrics of a run directory. The JSON has
 * `pass_at_k`, `rates`, `osvbench` (OSVBench's three categories), `partial`
 * with the `skipped` lines and `missing` samples, and per-attempt `category`,
 * plus everything else computeMetrics gives.
 *
 * A damaged directory still gets a report of what it holds: each line that
 * could not be read is named (file and line), and the report is marked
 * partial, as it is when samples the run should have are missing. A missing
 * directory or a damaged run.json is an error naming the path.
 */
import { agentMetricsLines } from '../../core/eval/stats/agent-metrics.ts';
import { plural } from '../../core/plural.ts';
import { attemptOutcome, computeMetrics, OUTCOMES, type RunMetrics, type TaskFacts, UNCHARGED } from '../../core/eval/stats/metrics.ts';
import { OSVBENCH_PASS1, REFERENCE_LABEL } from '../../core/eval/stats/published.ts';
import { CURVE_NOTE, curveTable, tableText } from '../../core/eval/stats/table.ts';
import type { RunStore } from '../../core/eval/run/run-types.ts';
import type { Task } from '../../core/tasks/task.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { join } from 'node:path';
import { type DamagedLine, JsonlRepository, RunDirError } from '../../store/jsonl.ts';
import { exists } from '../../store/run-dir-file.ts';
import { UsageError, parseArgs } from '../args.ts';
import { declaredOptions } from '../declarations.ts';
import { type BenchmarkFile, BenchmarkFileError, type ClassRow, classTableOfRun, parseBenchmarkFile } from '../../core/eval/files/benchmark-file.ts';
import { taskFactsOf } from '../../core/eval/session/task-facts.ts';
import { matrixText, variantMatrix } from '../../core/eval/stats/variant-matrix.ts';
import { strayAttemptsNote } from '../../core/eval/stats/stray-attempts.ts';
import { RESPONSES_CAP, readInput } from '../read-input.ts';
import { groupByMeaning } from '../meaning-groups.ts';
import type { Determinism } from '../../core/eval/stats/determinism.ts';
import { namesText } from '../../core/rename/choice.ts';
import { shapeText } from '../../core/shape/choice.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The `determinism` object of `report --json` (docs/research.md, "Determinism"). */
function determinismJson(d: Determinism): unknown {
  return {
    tasks: d.tasks.map((t) => ({ task: t.task, classes: t.classes })),
    mean_largest_share: d.mean_largest_share,
    consensus_pass_at_1: d.consensus_pass_at_1,
    queries: d.queries,
    median_query_ms: d.median_query_ms,
  };
}

/** The report's line on determinism. */
function determinismText(d: Determinism): string {
  const multi = d.tasks.filter((t) => t.classes.length > 1).length;
  return `determinism: mean largest class ${pct(d.mean_largest_share)} of a task's samples, consensus pass@1 ${pct(d.consensus_pass_at_1)} (the largest class's answer, no oracle); ${multi} of ${d.tasks.length} tasks have more than one behaviour; ${d.queries} equivalence queries, median ${Math.round(d.median_query_ms)} ms`;
}

/** What makes a report partial besides the metrics: damaged lines, a missing attempts file, a merge that skipped lines. */
export interface ReportNotes {
  readonly damaged?: readonly DamagedLine[];
  /** Why the report covers less than the run (e.g. "attempts.jsonl is missing"). */
  readonly missing?: readonly string[];
  readonly benchmark?: BenchmarkFile;
}

export async function printReport(store: RunStore, runId: string, tasks: readonly Task[], json: boolean, damagedOrNotes: readonly DamagedLine[] | ReportNotes = []): Promise<RunMetrics> {
  const notes: ReportNotes = Array.isArray(damagedOrNotes) ? { damaged: damagedOrNotes } : (damagedOrNotes as ReportNotes);
  const damaged = notes.damaged ?? [];
  const run = await store.getRun(runId);
  if (!run) throw new UsageError(`no run ${runId}`);
  const attempts = await store.listAttempts(runId);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  // Tasks this build does not have (a run from another version, a handler-only answer, an upstream index): counted by handler name.
  const selected: TaskFacts[] = run.config.tasks.map((id) => taskFactsOf(id, (x) => byId.get(x)));
  // An answers file may give tasks different numbers of samples: only a benchmark run has a size to miss.
  const m = computeMetrics(selected, attempts, { n: run.source ? undefined : run.config.n, rounds: run.config.repairRounds });
  // A run that has not finished (stopped, interrupted, still running) is partial until it is: its numbers leave out what is not graded yet.
  const ungraded = attempts.filter((a) => attemptOutcome(a) === undefined).length;
  const unfinished = run.status === 'done' ? [] : [`the run is not finished (status ${run.status})${ungraded ? `: ${ungraded} of ${attempts.length} answers are not graded yet` : ''}; rerun the command that made it to finish it`];
  const missingNotes = [...(notes.missing ?? []), ...(run.partial ? [run.partial] : []), ...unfinished, ...[strayAttemptsNote(m.strayAttempts)].filter((n) => n !== undefined)];
  const partial = damaged.length > 0 || m.missingSamples > 0 || missingNotes.length > 0;
  const classes = notes.benchmark ? classTableOfRun(notes.benchmark, attempts, tasks.map((t) => t.id)) : undefined;
  const grading = run.config.grading ?? null;
  const matrix = grading?.matrix ? variantMatrix(attempts, (id) => byId.get(id)?.bug_count === 0) : undefined;
  const handlers = new Map(selected.map((t) => [t.id, t.handler]));
  const determinism = await groupByMeaning(attempts, (id) => handlers.get(id) ?? taskFactsOf(id, (x) => byId.get(x)).handler);
  if (json) {
    const out = {
      run: { id: run.id, model: run.config.model, provider: run.config.provider, status: run.status, verifier: run.provenance.verifier, ...(run.source ? { source: run.source } : {}) },
      grading,
      ...(matrix ? { variant_matrix: { answers: matrix.answers, correct: matrix.correct, catch_all: matrix.catchAll, miss_some: matrix.missSome } } : {}),
      partial,
      ...(missingNotes.length ? { partial_reasons: missingNotes } : {}),
      skipped: damaged,
      ...(classes ? { osvbench_classes: { as_upstream: classes.asUpstream, corrected: classes.corrected, unmatched: classes.unmatched } } : {}),
      missing: m.missingSamples,
      pass_at_k: m.passAtK,
      rates: m.rates,
      osvbench: m.osvbench,
      determinism: determinismJson(determinism),
      metrics: m,
      attempts: attempts.map((a) => ({ id: a.id, task_id: a.taskId, sample: a.sample, round: a.round, category: attemptOutcome(a) ?? null, strict: a.grade?.strict ?? null })),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return m;
  }
  const lines: string[] = [];
  lines.push(`run ${run.id}: ${run.config.provider}/${run.config.model}, ${m.tasks} tasks, ${m.samples} first answers graded, ${run.config.shots}-shot, status ${run.status}${run.source ? ` (answers from ${run.source.file})` : ''}`);
  if (run.config.rename) lines.push(`names: ${namesText(run.config.rename)} (the model saw renamed names; its answers were graded renamed back, docs/rename.md)`);
  if (run.config.shape) lines.push(`shape: ${shapeText(run.config.shape)} (the model saw the code reordered; its answers were graded as written, docs/shape.md)`);
  if (partial) {
    lines.push('PARTIAL REPORT: the numbers below cover only what the directory holds.');
    for (const d of damaged) lines.push(`  skipped ${d.file} line ${d.line}: ${d.reason}`);
    for (const n of missingNotes) lines.push(`  ${n}`);
    if (m.missingSamples > 0) lines.push(`  ${m.missingSamples} of ${m.expectedSamples} first answers are missing (not asked yet, or lost)${run.status === 'done' ? ', although the run is recorded as done' : ''}`);
  }
  lines.push(grading ? `grading: solver time limit ${grading.timeoutMs} ms, lemmas ${grading.strict ? 'on' : 'off'}${grading.matrix ? ', variant matrix on' : ''}` : 'grading: time limit and lemmas not recorded (a run made before they were)');
  if (matrix) lines.push(`variant matrix: ${matrixText(matrix)}`);
  lines.push(`pass@k: ${Object.entries(m.passAtK).map(([k, v]) => `pass@${k} ${pct(v)}`).join('  ') || '(none)'}`);
  for (const [k, why] of Object.entries(m.passAtKSkipped)) lines.push(`  pass@${k} skipped: ${why}`);
  lines.push(`outcomes: ${OUTCOMES.map((k) => `${k} ${pct(m.rates[k])} (${m.counts[k]})`).join('  ')}`);
  lines.push(`OSVBench's categories: ${(['pass', 'syntax', 'semantic'] as const).map((k) => `${k} ${pct(m.osvbench.rates[k])} (${m.osvbench.counts[k]})`).join('  ')}   (timeout and unknown count as semantic, as upstream)`);
  lines.push(`not charged to the model: ${UNCHARGED.map((k) => `${k} ${m.uncharged[k]}`).join('  ')}${m.uncharged.unanswered + m.uncharged.internal ? '   (left out of pass@k and the rates; resume the run to retry them)' : ''}`);
  const strict = m.counts.pass ? `${m.strictPasses} of ${m.counts.pass} passing (${pct(m.strictRate)} of first answers)` : '- (no first answer passed)';
  const following = m.bugFollowing.samples ? `${m.bugFollowing.following}/${m.bugFollowing.samples} answers to buggy variants refine the bug shown (${pct(m.bugFollowing.rate)})` : '- (no buggy variant answered)';
  lines.push(`lemmas: ${strict}   bug-following: ${following}   pass after repair: ${pct(m.passAfterRepair)}`);
  lines.push(determinismText(determinism));
  if (m.agent) lines.push(...agentMetricsLines(m.agent));
  for (const r of m.repair) lines.push(`repair round ${r.round}: ${r.fixed}/${r.attempted} fixed, ${r.stillFailing} still failing`);
  lines.push(...repairCurveLines(m, run.config.feedback));
  lines.push('by bug class (a task with several classes counts in each):');
  for (const [k, g] of Object.entries(m.byBugClass)) if (g.tasks) lines.push(`  ${k.padEnd(20)} ${pct(g.pass1).padStart(7)}  (${plural(g.tasks, 'task')})`);
  if (classes) {
    const row = (r: ClassRow) => `${pct(r.samples ? r.passes / r.samples : 0).padStart(7)}  (${r.passes}/${r.samples}, ${plural(r.tasks, 'task')})`;
    lines.push("by OSVBench bug class (the benchmark file's labels, counted as upstream's statistics count):");
    for (const r of classes.asUpstream) lines.push(`  ${r.label.padEnd(20)} ${row(r)}`);
    const fixed = classes.corrected.filter((r, i) => r.samples !== classes.asUpstream[i].samples);
    if (fixed.length) {
      lines.push('  with the misspelled labels ("mmeory leak", "buffer overlfow") read as the classes they mean, which upstream does not count:');
      for (const r of fixed) lines.push(`  ${r.label.padEnd(20)} ${row(r)}`);
    }
    if (classes.unmatched) lines.push(`  ${classes.unmatched} first answers have an index the benchmark file does not list`);
  } else if (run.source?.format === 'osvbench') {
    lines.push("  (bug classes of OSVBench's own tasks: give --benchmark FILE, upstream's benchmark.json or osvlab tasks --format osvbench, for the per-class table)");
  }
  lines.push('by bug count:');
  for (const [k, g] of Object.entries(m.byBugCount)) if (g.tasks) lines.push(`  ${k.padEnd(20)} ${pct(g.pass1).padStart(7)}  (${plural(g.tasks, 'task')})`);
  lines.push('by handler:              pass@1   passes/samples');
  for (const [k, g] of Object.entries(m.byHandler)) if (g.tasks) lines.push(`  ${k.padEnd(22)} ${pct(g.pass1).padStart(7)}   ${g.passes}/${g.samples}`);
  lines.push(`tokens: ${m.tokens.input} in, ${m.tokens.output} out   cost: $${m.cost.usd.toFixed(4)}${m.cost.unpriced ? ` (${m.cost.unpriced} attempts unpriced)` : ''}   latency: median ${m.latency.median ?? '-'} ms, p90 ${m.latency.p90 ?? '-'} ms`);
  lines.push('', `reference (${REFERENCE_LABEL}), Pass@1:`);
  for (const r of OSVBENCH_PASS1) lines.push(`  ${r.model.padEnd(20)} ${r.total.toFixed(2)}%`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return m;
}

/**
 * The repair curve section (docs/research.md): pass@1 after each round with
 * its interval, the fixes, and the tokens and cost per fix; nothing for a
 * run without repair rounds.
 */
function repairCurveLines(m: RunMetrics, feedback: string | undefined): string[] {
  if (m.curve.rounds === 0) return [];
  return [`repair curve (${feedback ?? 'counterexample'} feedback; pass@1 after each round, 95% interval over tasks):`, ...tableText(curveTable(m.curve)), `  ${CURVE_NOTE}`];
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, declaredOptions('report'));
  let benchmark: BenchmarkFile | undefined;
  const benchPath = args.values.get('benchmark');
  if (benchPath !== undefined) {
    try {
      benchmark = parseBenchmarkFile(await readInput(benchPath, 'benchmark', RESPONSES_CAP, 'decode'));
    } catch (e) {
      if (e instanceof BenchmarkFileError) throw new UsageError(`${benchPath}: ${e.message}`);
      throw e;
    }
    for (const w of benchmark.warnings) process.stderr.write(`osvlab report: warning: ${benchPath}${w.line ? ` line ${w.line}` : ''}: ${w.code} ${w.message}\n`);
  }
  const [dir, ...extra] = args.positionals;
  if (!dir) throw new UsageError('which run directory? e.g. osvlab report .osvlab/runs/gpt-4o-1a2b3c4d5e6f');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  let store: JsonlRepository;
  try {
    store = await JsonlRepository.open(dir, { create: false });
  } catch (e) {
    if (e instanceof RunDirError) throw new UsageError(e.message.slice(e.code.length + 1), e.code);
    throw e;
  }
  try {
    const runs = await store.listRuns();
    if (runs.length === 0) throw new UsageError(`RUNDIR001 ${dir} holds no run (no run.json)`);
    for (const d of store.damaged) process.stderr.write(`osvlab report: skipped ${d.file} line ${d.line}: ${d.reason}\n`);
    const missing = exists(join(dir, 'attempts.jsonl')) ? [] : [`${join(dir, 'attempts.jsonl')} is missing: the run's answers are not here`];
    await printReport(store, runs[0].id, await loadTasks(), args.flags.has('json'), { damaged: store.damaged, missing, benchmark });
    return 0;
  } finally {
    await store.close();
  }
}

