/**
 * Comparing two runs on the same tasks, paired by task: which tasks flip,
 * the pass@1 difference with a 95% confidence interval from a paired
 * bootstrap over tasks (seeded, so the interval is reproducible), and an
 * exact McNemar test (a two-sided binomial test on the discordant pairs).
 * The pair of a task is its first sample's first answer (sample 0, round 0)
 * in each run. Tasks only one run has, tasks whose content hash differs
 * between the runs, and tasks either run has no graded first answer for
 * (not answered yet, or the request failed: an outage is not a model
 * failure) are left out and listed with the reason. Differences are B - A.
 * Round by round, the same pairs are compared on "passed by round r" for
 * r = 0 up to the fewer repair rounds of the two runs, each round over the
 * tasks whose sample-0 chain has a known fate after it in both runs
 * (repair-curve.ts); and each run after its own last round, which is what
 * compares a run with repairs to one without. See docs/scale.md and
 * docs/research.md.
 */
import { type AttemptRecord, type RunRecord } from '../run/run-types.ts';
import type { TaskFacts } from './outcome.ts';
import { chainsOf } from './outcome.ts';
import { fateAfter } from './repair-curve.ts';
import { bootstrapMeanCi } from './bootstrap.ts';
import { BUG_CLASSES } from '../../tasks/task.ts';

export interface CompareSide {
  readonly run: RunRecord;
  readonly attempts: readonly AttemptRecord[];
}

export type DropReason = 'only-in-a' | 'only-in-b' | 'content-differs' | 'unanswered-in-a' | 'unanswered-in-b';

export interface DroppedTask {
  readonly task: string;
  readonly reason: DropReason;
}

export interface PairedStats {
  /** Tasks both runs answered (the pairs). */
  readonly tasks: number;
  readonly passA: number;
  readonly passB: number;
  readonly pass1A: number;
  readonly pass1B: number;
  /** Pass in A only (discordant pairs b of McNemar). */
  readonly onlyA: number;
  /** Pass in B only (discordant pairs c). */
  readonly onlyB: number;
  /** pass1B - pass1A. */
  readonly diff: number;
  /** 95% percentile interval of the paired bootstrap of diff; null without tasks. */
  readonly ci95: readonly [number, number] | null;
  /** Exact two-sided McNemar p-value (1 without discordant pairs). */
  readonly mcnemarP: number;
}

/** The paired comparison of "passed by round r". */
export interface RoundComparison {
  readonly round: number;
  readonly stats: PairedStats;
}

export interface RunComparison {
  readonly a: { readonly id: string; readonly model: string; readonly name?: string };
  readonly b: { readonly id: string; readonly model: string; readonly name?: string };
  readonly overall: PairedStats;
  readonly byBugClass: Readonly<Record<string, PairedStats>>;
  readonly byBugCount: Readonly<Record<string, PairedStats>>;
  /** Task ids that pass in A only, and in B only. */
  readonly flips: { readonly onlyA: readonly string[]; readonly onlyB: readonly string[] };
  /** Rounds 0..min(R_A, R_B): passed by that round, paired by task. */
  readonly byRound: readonly RoundComparison[];
  /** Each run after its own last round (R_A in A, R_B in B), paired by task. */
  readonly afterLastRound: { readonly roundA: number; readonly roundB: number; readonly stats: PairedStats };
  readonly dropped: readonly DroppedTask[];
  /**
   * Why there is nothing to compare, when no task is paired (the runs share
   * no task, or none has a graded first answer in both): every statistic
   * above is then over zero tasks and means nothing, and no front end shows it.
   */
  readonly nothing?: string;
  /** Things a reader should know (e.g. different verifier versions). */
  readonly warnings: readonly string[];
  readonly bootstrap: { readonly resamples: number; readonly seed: string };
}

export interface CompareOptions {
  readonly resamples?: number;
  readonly seed?: string;
}

/** log C(n, k) by sums of logs (n is at most a few thousand here). */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/**
 * Exact two-sided McNemar test: with b pairs passing in A only and c in B
 * only, p = min(1, 2 * P[X <= min(b, c)]) for X ~ Binomial(b + c, 1/2).
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`McNemar needs counts >= 0 (got ${b}, ${c})`);
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/**
 * The 95% percentile interval of mean(d) under resampling the tasks with
 * replacement; d holds each task's pass(B) - pass(A) in {-1, 0, 1}.
 */
export function pairedBootstrapCi(d: readonly number[], resamples: number, seed: string): readonly [number, number] | null {
  return bootstrapMeanCi(d, resamples, seed);
}

/** The paired statistics of pass/fail pairs. */
export function pairedStats(pairs: readonly { readonly a: boolean; readonly b: boolean }[], resamples: number, seed: string): PairedStats {
  const n = pairs.length;
  const passA = pairs.filter((p) => p.a).length;
  const passB = pairs.filter((p) => p.b).length;
  const onlyA = pairs.filter((p) => p.a && !p.b).length;
  const onlyB = pairs.filter((p) => !p.a && p.b).length;
  const d = pairs.map((p) => Number(p.b) - Number(p.a));
  return {
    tasks: n,
    passA,
    passB,
    pass1A: n ? passA / n : 0,
    pass1B: n ? passB / n : 0,
    onlyA,
    onlyB,
    diff: n ? (passB - passA) / n : 0,
    ci95: pairedBootstrapCi(d, resamples, seed),
    mcnemarP: mcnemarExact(onlyA, onlyB),
  };
}

/** The graded first answer of each task's first sample: pass or not; absent when not graded. */
function firstAnswers(side: CompareSide): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const a of side.attempts) {
    if (a.runId !== side.run.id || a.sample !== 0 || a.round !== 0 || !a.grade) continue;
    out.set(a.taskId, a.grade.category === 'pass');
  }
  return out;
}

/** Each task's sample-0 chain: whether it has passed after `round`, absent while its fate is open. */
function passedBy(side: CompareSide, round: number): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const chains = chainsOf(side.attempts.filter((a) => a.runId === side.run.id && a.sample === 0));
  for (const c of chains) {
    const { fate } = fateAfter(c, round);
    if (fate !== 'open') out.set(c.taskId, fate === 'passed');
  }
  return out;
}

/** Paired statistics of "passed by round r" over `ids`, for each round both runs have. */
export function compareByRound(A: CompareSide, B: CompareSide, ids: readonly string[], resamples: number, seed: string): RoundComparison[] {
  const rounds = Math.min(A.run.config.repairRounds, B.run.config.repairRounds);
  const out: RoundComparison[] = [];
  for (let round = 0; round <= rounds; round++) out.push({ round, stats: pairedAfter(A, round, B, round, ids, resamples, `${seed}/round/${round}`) });
  return out;
}

/** Paired statistics of A passed by `roundA` against B passed by `roundB`, over the `ids` whose fate is known in both. */
function pairedAfter(A: CompareSide, roundA: number, B: CompareSide, roundB: number, ids: readonly string[], resamples: number, seed: string): PairedStats {
  const a = passedBy(A, roundA);
  const b = passedBy(B, roundB);
  return pairedStats(ids.filter((id) => a.has(id) && b.has(id)).map((id) => ({ a: a.get(id)!, b: b.get(id)! })), resamples, seed);
}

const tasksWord = (n: number) => `${n} ${n === 1 ? 'task' : 'tasks'}`;

/** Why no task is paired, in words: no task in common, none with the same content, or none answered in both. */
function nothingPaired(A: CompareSide, B: CompareSide, common: number, dropped: readonly DroppedTask[]): string {
  const sizes = `A has ${tasksWord(A.run.config.tasks.length)}, B ${tasksWord(B.run.config.tasks.length)}`;
  if (common > 0) return `no task has a graded first answer in both runs (${sizes}, ${common} in common)`;
  const differs = dropped.filter((d) => d.reason === 'content-differs').length;
  if (differs > 0) return `no task the runs share has the same content in both (${sizes}, ${differs} shared)`;
  return `the runs have no task in common (${sizes})`;
}

export function compareRuns(A: CompareSide, B: CompareSide, tasks: readonly TaskFacts[], options: CompareOptions = {}): RunComparison {
  const resamples = options.resamples ?? 10000;
  const seed = options.seed ?? 'osvlab-compare';
  const facts = new Map(tasks.map((t) => [t.id, t]));
  const inB = new Set(B.run.config.tasks);
  const inA = new Set(A.run.config.tasks);
  const ansA = firstAnswers(A);
  const ansB = firstAnswers(B);
  const dropped: DroppedTask[] = [];
  const paired: { task: TaskFacts; a: boolean; b: boolean }[] = [];
  for (const id of A.run.config.tasks) {
    if (!inB.has(id)) dropped.push({ task: id, reason: 'only-in-a' });
    else if (A.run.taskHashes[id] !== B.run.taskHashes[id]) dropped.push({ task: id, reason: 'content-differs' });
    else if (!ansA.has(id)) dropped.push({ task: id, reason: 'unanswered-in-a' });
    else if (!ansB.has(id)) dropped.push({ task: id, reason: 'unanswered-in-b' });
    else {
      const f = facts.get(id) ?? { id, handler: id.replace(/-v\d+$/, ''), bug_classes: [], bug_count: 0 };
      paired.push({ task: f, a: ansA.get(id)!, b: ansB.get(id)! });
    }
  }
  for (const id of B.run.config.tasks) if (!inA.has(id)) dropped.push({ task: id, reason: 'only-in-b' });

  const warnings: string[] = [];
  if (A.run.provenance.verifier !== B.run.provenance.verifier) {
    warnings.push(`the runs were graded by different verifier versions (${A.run.provenance.verifier} and ${B.run.provenance.verifier}); regrade one to compare grades of the same verifier`);
  }
  if (A.run.config.shots !== B.run.config.shots) warnings.push(`the runs used different prompts: ${A.run.config.shots}-shot and ${B.run.config.shots}-shot`);
  if (A.run.config.repairRounds !== B.run.config.repairRounds) {
    warnings.push(
      `the runs have different repair rounds (${A.run.config.repairRounds} and ${B.run.config.repairRounds}): round by round they are compared up to round ${Math.min(A.run.config.repairRounds, B.run.config.repairRounds)}, and each after its own last round`,
    );
  }
  const unknownFacts = paired.filter((p) => !facts.has(p.task.id)).length;
  if (unknownFacts) warnings.push(`${unknownFacts} paired tasks are not in this build's task list: they count overall but not by bug class or count`);

  const byBugClass: Record<string, PairedStats> = {};
  for (const cls of BUG_CLASSES) {
    const g = paired.filter((p) => p.task.bug_classes.includes(cls));
    if (g.length) byBugClass[cls] = pairedStats(g, resamples, `${seed}/class/${cls}`);
  }
  const correct = paired.filter((p) => facts.has(p.task.id) && p.task.bug_count === 0);
  if (correct.length) byBugClass.correct = pairedStats(correct, resamples, `${seed}/class/correct`);
  const byBugCount: Record<string, PairedStats> = {};
  for (const n of [...new Set(paired.filter((p) => facts.has(p.task.id)).map((p) => p.task.bug_count))].sort((x, y) => x - y)) {
    byBugCount[n] = pairedStats(paired.filter((p) => facts.has(p.task.id) && p.task.bug_count === n), resamples, `${seed}/count/${n}`);
  }
  const common = A.run.config.tasks.filter((id) => inB.has(id) && A.run.taskHashes[id] === B.run.taskHashes[id]);
  const side = (s: CompareSide) => ({ id: s.run.id, model: s.run.config.model, ...(s.run.name ? { name: s.run.name } : {}) });
  const nothing = paired.length ? undefined : nothingPaired(A, B, common.length, dropped);
  return {
    a: side(A),
    b: side(B),
    overall: pairedStats(paired, resamples, `${seed}/overall`),
    byBugClass,
    byBugCount,
    flips: { onlyA: paired.filter((p) => p.a && !p.b).map((p) => p.task.id), onlyB: paired.filter((p) => !p.a && p.b).map((p) => p.task.id) },
    byRound: compareByRound(A, B, common, resamples, seed),
    afterLastRound: {
      roundA: A.run.config.repairRounds,
      roundB: B.run.config.repairRounds,
      stats: pairedAfter(A, A.run.config.repairRounds, B, B.run.config.repairRounds, common, resamples, `${seed}/last`),
    },
    dropped,
    ...(nothing ? { nothing } : {}),
    warnings,
    bootstrap: { resamples, seed },
  };
}
