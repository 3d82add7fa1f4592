/**
 * The numbers of a run, from its graded attempts: pass@k, failure rates,
 * repair success and the repair curve, results by bug class, bug count and handler, bug-following,
 * lemma passes, OSVBench's three categories, tokens, cost and latency. Pure
 * functions of stored records.
 *
 * Counting rules: pass@k and the rates use first answers (round 0) only;
 * repairs are reported on their own. Only the model's outcomes count
 * (pass, syntax, semantic, timeout, unknown): a first answer whose request
 * failed for good is `unanswered` and one the grader failed on is
 * `internal`; both are counted and shown but left out of pass@k and the
 * rates, since neither says anything about the model. Samples not finished
 * yet are left out too, and counted as missing when the run's size is known.
 */
import { type AgentMetrics, agentMetrics } from './agent-metrics.ts';
import { type OsvbenchCategory, osvbenchCategory } from '../grade/grade-types.ts';
import type { AttemptRecord } from '../run/run-types.ts';
import { ascending, interpolated, nearestRank } from '../../quantile.ts';
import { BUG_CLASSES, type BugClass } from '../../tasks/task.ts';
import { type Chain, OUTCOMES, type Outcome, type TaskFacts, type Uncharged, attemptOutcome, chainsOf, outcomeOf } from './outcome.ts';
import { type RepairCurve, repairCurve } from './repair-curve.ts';

export { OUTCOMES, UNCHARGED, type TaskFacts, attemptOutcome } from './outcome.ts';

/** The k of pass@k a run's metrics report, when every task has k samples. */
export const PASS_KS = [1, 3, 5] as const;

/**
 * The unbiased pass@k estimator 1 - C(n-c, k) / C(n, k) for one task with n
 * samples of which c pass, in the product form
 * 1 - prod_{i=n-c+1}^{n} (1 - k/i), which never forms large binomials.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 0 || c < 0 || k < 1) {
    throw new RangeError(`pass@k needs integers n >= 0, 0 <= c <= n, k >= 1 (got n=${n}, c=${c}, k=${k})`);
  }
  if (c > n) throw new RangeError(`pass@k: c=${c} passing samples out of n=${n} is impossible`);
  if (k > n) throw new RangeError(`pass@${k} needs at least ${k} samples per task, but there are only ${n}`);
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/** Pass counts of one group of tasks. */
export interface GroupResult {
  readonly tasks: number;
  /** Finished first answers. */
  readonly samples: number;
  readonly passes: number;
  /** Mean over the group's tasks of (passes / samples): pass@1. */
  readonly pass1: number;
}

export interface RepairRound {
  readonly round: number;
  /** Chains that got a repair attempt in this round (finished ones). */
  readonly attempted: number;
  readonly fixed: number;
  readonly stillFailing: number;
  /** By the failure kind being repaired (the previous round's outcome). */
  readonly byKind: Readonly<Partial<Record<Outcome, { readonly attempted: number; readonly fixed: number }>>>;
}

export interface Distribution {
  readonly count: number;
  readonly median: number | null;
  readonly p90: number | null;
}

export interface RunMetrics {
  readonly tasks: number;
  /** Finished first answers. */
  readonly samples: number;
  /** Fewest finished samples of any task (the largest usable k). */
  readonly minSamplesPerTask: number;
  /** pass@k for each k in PASS_KS that every task has enough samples for. */
  readonly passAtK: Readonly<Record<string, number>>;
  /** Why a k is missing. */
  readonly passAtKSkipped: Readonly<Record<string, string>>;
  /** Shares of first answers by outcome (they sum to 1 when there are any). */
  readonly rates: Readonly<Record<Outcome, number>>;
  /** First answers by outcome. */
  readonly counts: Readonly<Record<Outcome, number>>;
  /** First answers not charged to the model: the request was never answered, or the grader failed. */
  readonly uncharged: Readonly<Record<Uncharged, number>>;
  /** First answers the run should have (tasks x n), when the caller said n; else null. */
  readonly expectedSamples: number | null;
  /** Expected first answers with no outcome at all (not asked yet, or lost): 0 when n is unknown. */
  readonly missingSamples: number;
  /** Attempts naming a task the run does not have (a hand-edited or mixed-up directory): left out of every number. */
  readonly strayAttempts: { readonly count: number; readonly taskIds: readonly string[] };
  /** OSVBench's three categories over the model's first answers (timeout and unknown are semantic, as upstream). */
  readonly osvbench: { readonly counts: Readonly<Record<OsvbenchCategory, number>>; readonly rates: Readonly<Record<OsvbenchCategory, number>> };
  /** First answers that pass and whose lemma checks hold. */
  readonly strictPasses: number;
  /** Passing first answers whose lemma checks ran (strict is true or false). */
  readonly strictChecked: number;
  /** Share of first answers that pass and whose lemma checks hold. */
  readonly strictRate: number;
  /** On buggy variants: share of graded first answers that refine the buggy code shown. */
  readonly bugFollowing: { readonly samples: number; readonly following: number; readonly rate: number };
  readonly repair: readonly RepairRound[];
  /** pass@1 after each round 0..R with its interval, fixes and spending per round (repair-curve.ts). */
  readonly curve: RepairCurve;
  /** Share of (task, sample) chains that pass in some round. */
  readonly passAfterRepair: number;
  /** Multi-label: a task with two bug classes counts in both; "correct" is the bug-free variants. */
  readonly byBugClass: Readonly<Record<BugClass | 'correct', GroupResult>>;
  readonly byBugCount: Readonly<Record<string, GroupResult>>;
  readonly byHandler: Readonly<Record<string, GroupResult>>;
  readonly tokens: { readonly input: number; readonly output: number };
  /** USD over priced attempts, and how many attempts had no price. */
  readonly cost: { readonly usd: number; readonly unpriced: number };
  /** Response latency over every answered attempt (ms). */
  readonly latency: Distribution;
  /** An agent run's trajectories (agent-metrics.ts); absent in other runs. */
  readonly agent?: AgentMetrics;
}

/** Median (interpolated) and 90th percentile (nearest rank), core/quantile.ts. */
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { count: 0, median: null, p90: null };
  const s = ascending(values);
  return { count: s.length, median: interpolated(s, 0.5), p90: nearestRank(s, 0.9) };
}

interface PerTask {
  readonly task: TaskFacts;
  n: number;
  c: number;
}

function group(list: readonly PerTask[]): GroupResult {
  const counted = list.filter((t) => t.n > 0);
  const samples = counted.reduce((s, t) => s + t.n, 0);
  const passes = counted.reduce((s, t) => s + t.c, 0);
  const pass1 = counted.length === 0 ? 0 : counted.reduce((s, t) => s + t.c / t.n, 0) / counted.length;
  return { tasks: counted.length, samples, passes, pass1 };
}

/** The first answers (round 0): per-task counts and every tally made of them. */
interface FirstAnswers {
  readonly per: ReadonlyMap<string, PerTask>;
  readonly samples: number;
  readonly counts: Record<Outcome, number>;
  readonly uncharged: Record<Uncharged, number>;
  readonly strict: number;
  readonly strictChecked: number;
  readonly bugFollowing: { samples: number; following: number };
}

function firstAnswers(tasks: readonly TaskFacts[], attempts: readonly AttemptRecord[]): FirstAnswers {
  const per = new Map<string, PerTask>(tasks.map((t) => [t.id, { task: t, n: 0, c: 0 }]));
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const uncharged: Record<Uncharged, number> = { unanswered: 0, internal: 0 };
  const bugFollowing = { samples: 0, following: 0 };
  let samples = 0;
  let strict = 0;
  let strictChecked = 0;
  for (const a of attempts) {
    if (a.round !== 0) continue;
    const any = attemptOutcome(a);
    if (any === 'unanswered' || any === 'internal') uncharged[any]++;
    const o = outcomeOf(a);
    if (!o) continue;
    samples++;
    counts[o]++;
    const p = per.get(a.taskId)!;
    p.n++;
    if (o === 'pass') p.c++;
    if (o === 'pass' && a.grade?.strict !== undefined) strictChecked++;
    if (o === 'pass' && a.grade?.strict === true) strict++;
    if (p.task.bug_count > 0 && a.grade) {
      bugFollowing.samples++;
      if (a.grade.bugFollowing === true) bugFollowing.following++;
    }
  }
  return { per, samples, counts, uncharged, strict, strictChecked, bugFollowing };
}

/** pass@k for each k of PASS_KS every task has the samples for, and why the others are missing. */
function passAtKs(withSamples: readonly PerTask[]): { passAt: Record<string, number>; skipped: Record<string, string>; minN: number } {
  const minN = withSamples.length === 0 ? 0 : Math.min(...withSamples.map((p) => p.n));
  const passAt: Record<string, number> = {};
  const skipped: Record<string, string> = {};
  for (const k of PASS_KS) {
    if (withSamples.length === 0) {
      skipped[k] = 'no finished samples';
    } else if (minN < k) {
      skipped[k] = `pass@${k} needs at least ${k} samples per task; the fewest is ${minN}`;
    } else {
      passAt[k] = withSamples.reduce((s, p) => s + passAtK(p.n, p.c, k), 0) / withSamples.length;
    }
  }
  return { passAt, skipped, minN };
}

/** Repair success per round: within each chain, round r follows round r-1's failure. */
function repairRounds(chains: readonly Chain[]): { repair: RepairRound[]; finished: number; passing: number } {
  const rounds = new Map<number, { attempted: number; fixed: number; byKind: Partial<Record<Outcome, { attempted: number; fixed: number }>> }>();
  let finished = 0;
  let passing = 0;
  for (const { rounds: byRound } of chains) {
    const first = byRound.get(0);
    if (!first || !outcomeOf(first)) continue;
    finished++;
    if ([...byRound.values()].some((a) => outcomeOf(a) === 'pass')) passing++;
    for (const a of byRound.values()) {
      if (a.round === 0) continue;
      const o = outcomeOf(a);
      const prev = byRound.get(a.round - 1);
      const prevO = prev && outcomeOf(prev);
      if (!o || !prevO) continue;
      const r = rounds.get(a.round) ?? { attempted: 0, fixed: 0, byKind: {} };
      r.attempted++;
      if (o === 'pass') r.fixed++;
      const k = (r.byKind[prevO] ??= { attempted: 0, fixed: 0 });
      k.attempted++;
      if (o === 'pass') k.fixed++;
      rounds.set(a.round, r);
    }
  }
  const repair = [...rounds.entries()]
    .sort(([a], [b]) => a - b)
    .map(([round, r]) => ({ round, attempted: r.attempted, fixed: r.fixed, stillFailing: r.attempted - r.fixed, byKind: r.byKind }));
  return { repair, finished, passing };
}

/** pass@1 by bug class (multi-label, plus "correct"), by bug count and by handler. */
function breakdowns(all: readonly PerTask[]): Pick<RunMetrics, 'byBugClass' | 'byBugCount' | 'byHandler'> {
  const byBugClass = {} as Record<BugClass | 'correct', GroupResult>;
  for (const cls of BUG_CLASSES) byBugClass[cls] = group(all.filter((p) => p.task.bug_classes.includes(cls)));
  byBugClass.correct = group(all.filter((p) => p.task.bug_count === 0));
  const byBugCount: Record<string, GroupResult> = {};
  for (const n of [...new Set(all.map((p) => p.task.bug_count))].sort((a, b) => a - b)) {
    byBugCount[n] = group(all.filter((p) => p.task.bug_count === n));
  }
  // One pass over the tasks (a run may name any number of handlers).
  const perHandler = new Map<string, (typeof all)[number][]>();
  for (const p of all) {
    const list = perHandler.get(p.task.handler);
    if (list) list.push(p);
    else perHandler.set(p.task.handler, [p]);
  }
  const byHandler: Record<string, GroupResult> = {};
  for (const h of [...perHandler.keys()].sort()) byHandler[h] = group(perHandler.get(h)!);
  return { byBugClass, byBugCount, byHandler };
}

/** Tokens, cost and latency over every answered attempt. */
function usage(attempts: readonly AttemptRecord[]): Pick<RunMetrics, 'tokens' | 'cost' | 'latency'> {
  let input = 0;
  let output = 0;
  let usd = 0;
  let unpriced = 0;
  const latencies: number[] = [];
  for (const a of attempts) {
    if (!a.response) continue;
    input += a.response.usage.input;
    output += a.response.usage.output;
    latencies.push(a.response.latencyMs);
    if (a.cost === null) unpriced++;
    else usd += a.cost;
  }
  return { tokens: { input, output }, cost: { usd, unpriced }, latency: distribution(latencies) };
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/**
 * The metrics of a run's attempts over the given tasks (attempts of other
 * tasks are ignored). With `n` (samples per task), missing samples are
 * counted; `rounds` (the run's repair rounds) carries the repair curve to
 * its last round.
 */
export function computeMetrics(tasks: readonly TaskFacts[], attempts: readonly AttemptRecord[], opts: { readonly n?: number; readonly rounds?: number } = {}): RunMetrics {
  const ids = new Set(tasks.map((t) => t.id));
  const mine = attempts.filter((a) => ids.has(a.taskId));
  const strayIds = [...new Set(attempts.filter((a) => !ids.has(a.taskId)).map((a) => a.taskId))].sort();
  const first = firstAnswers(tasks, mine);
  const { samples, counts, uncharged } = first;

  const rates = Object.fromEntries(OUTCOMES.map((o) => [o, share(counts[o], samples)])) as Record<Outcome, number>;
  const ob: Record<OsvbenchCategory, number> = { pass: 0, syntax: 0, semantic: 0 };
  for (const o of OUTCOMES) ob[osvbenchCategory(o)!] += counts[o];
  const obRates = Object.fromEntries(Object.entries(ob).map(([k, v]) => [k, share(v, samples)])) as Record<OsvbenchCategory, number>;
  const expectedSamples = opts.n === undefined ? null : tasks.length * opts.n;
  const missingSamples = expectedSamples === null ? 0 : Math.max(0, expectedSamples - samples - uncharged.unanswered - uncharged.internal);

  const all = [...first.per.values()];
  const withSamples = all.filter((p) => p.n > 0);
  const { passAt, skipped, minN } = passAtKs(withSamples);
  const { repair, finished, passing } = repairRounds(chainsOf(mine));
  const bf = first.bugFollowing;
  const agent = agentMetrics(mine);

  return {
    tasks: withSamples.length,
    samples,
    minSamplesPerTask: minN,
    passAtK: passAt,
    passAtKSkipped: skipped,
    rates,
    counts,
    uncharged,
    expectedSamples,
    missingSamples,
    strayAttempts: { count: attempts.length - mine.length, taskIds: strayIds },
    osvbench: { counts: ob, rates: obRates },
    strictPasses: first.strict,
    strictChecked: first.strictChecked,
    strictRate: share(first.strict, samples),
    bugFollowing: { samples: bf.samples, following: bf.following, rate: share(bf.following, bf.samples) },
    repair,
    curve: repairCurve(tasks, mine, opts.rounds === undefined ? {} : { rounds: opts.rounds }),
    passAfterRepair: share(passing, finished),
    ...breakdowns(all),
    ...usage(mine),
    ...(agent ? { agent } : {}),
  };
}
