/**
 * The repair curve of a run: pass@1 after round 0, 1, ..., R, each with a
 * bootstrap 95% interval over tasks, the chains (and tasks) each round fixed,
 * and what each round spent per fix. Pure function of stored attempts
 * (docs/research.md).
 *
 * After round r, a (task, sample) chain has passed (in some round <= r),
 * failed (the model's outcome in every round up to r, none a pass) or is
 * open (some round up to r has no outcome of the model yet: not asked, an
 * unanswered request, an internal grade). Open chains are left out of that
 * round and counted. pass@1 after round r is the mean over tasks of the
 * share of their counted chains that have passed, so at round 0 it is the
 * run's pass@1. A round's tokens are those of every answer in it (answers
 * from the response cache included: the configuration needs them), its cost
 * is what was paid (a cached answer cost nothing this time).
 */
import type { AttemptRecord } from '../run/run-types.ts';
import { bootstrapMeanCi } from './bootstrap.ts';
import { type Chain, type TaskFacts, chainsOf, outcomeOf } from './outcome.ts';

export interface CurvePoint {
  readonly round: number;
  /** Tasks with at least one chain counted after this round. */
  readonly tasks: number;
  /** Chains counted after this round: passed by it, or failed in every round up to it. */
  readonly chains: number;
  /** Of the counted chains, those that passed in this round or before (the rest failed in every round so far). */
  readonly passed: number;
  /** Chains left out: a round up to this one has no outcome of the model. */
  readonly open: number;
  /** Mean over tasks of the share of counted chains that passed in this round or before. */
  readonly pass1: number;
  /** Percentile bootstrap 95% interval of pass1 over tasks; null without tasks. */
  readonly ci95: readonly [number, number] | null;
  /** Chains whose first pass is this round (round 0: first answers that pass). */
  readonly fixed: number;
  /** Tasks with a chain fixed in this round, sorted. */
  readonly fixedTasks: readonly string[];
  /** Tokens of this round's answers. */
  readonly tokens: { readonly input: number; readonly output: number };
  /** USD paid for this round's answers (priced ones). */
  readonly cost: number;
  /** This round's answers without a price. */
  readonly unpriced: number;
  /** Input plus output tokens of this round per chain it fixed; null when it fixed none. */
  readonly tokensPerFix: number | null;
  /** USD of this round per chain it fixed; null when it fixed none. */
  readonly costPerFix: number | null;
}

export interface RepairCurve {
  /** The last round (R): the run's repair rounds. */
  readonly rounds: number;
  /** One point per round 0..R. */
  readonly points: readonly CurvePoint[];
  readonly bootstrap: { readonly resamples: number; readonly seed: string };
}

export interface CurveOptions {
  /** Repair rounds of the run (default: the last round any attempt has). */
  readonly rounds?: number;
  readonly resamples?: number;
  readonly seed?: string;
}

export type Fate = 'passed' | 'failed' | 'open';

/** What is known of a chain after `round`, and the round of its first pass. */
export function fateAfter(chain: Chain, round: number): { fate: Fate; passedIn?: number } {
  for (let r = 0; r <= round; r++) {
    const a = chain.rounds.get(r);
    const o = a && outcomeOf(a);
    if (!o) return { fate: 'open' };
    if (o === 'pass') return { fate: 'passed', passedIn: r };
  }
  return { fate: 'failed' };
}

/** The repair curve of the attempts of `tasks` (attempts of other tasks are ignored). */
export function repairCurve(tasks: readonly TaskFacts[], attempts: readonly AttemptRecord[], options: CurveOptions = {}): RepairCurve {
  const resamples = options.resamples ?? 2000;
  const seed = options.seed ?? 'osvlab-curve';
  const ids = new Set(tasks.map((t) => t.id));
  const mine = attempts.filter((a) => ids.has(a.taskId));
  const rounds = options.rounds ?? mine.reduce((m, a) => Math.max(m, a.round), 0);
  const chains = chainsOf(mine);
  const points: CurvePoint[] = [];
  for (let round = 0; round <= rounds; round++) {
    const perTask = new Map<string, { n: number; c: number }>();
    let open = 0;
    let passed = 0;
    let fixed = 0;
    const fixedTasks = new Set<string>();
    for (const chain of chains) {
      const { fate, passedIn } = fateAfter(chain, round);
      if (fate === 'open') {
        open++;
        continue;
      }
      const t = perTask.get(chain.taskId) ?? { n: 0, c: 0 };
      t.n++;
      if (fate === 'passed') {
        t.c++;
        passed++;
      }
      perTask.set(chain.taskId, t);
      if (passedIn === round) {
        fixed++;
        fixedTasks.add(chain.taskId);
      }
    }
    const shares = [...perTask.values()].map((t) => t.c / t.n);
    const spent = spentIn(mine, round);
    const all = spent.tokens.input + spent.tokens.output;
    points.push({
      round,
      tasks: shares.length,
      chains: [...perTask.values()].reduce((s, t) => s + t.n, 0),
      passed,
      open,
      pass1: shares.length === 0 ? 0 : shares.reduce((s, x) => s + x, 0) / shares.length,
      ci95: bootstrapMeanCi(shares, resamples, `${seed}/round/${round}`),
      fixed,
      fixedTasks: [...fixedTasks].sort(),
      ...spent,
      tokensPerFix: fixed ? all / fixed : null,
      costPerFix: fixed ? spent.cost / fixed : null,
    });
  }
  return { rounds, points, bootstrap: { resamples, seed } };
}

/** Tokens and cost of the answered attempts of one round. */
function spentIn(attempts: readonly AttemptRecord[], round: number): Pick<CurvePoint, 'tokens' | 'cost' | 'unpriced'> {
  let input = 0;
  let output = 0;
  let cost = 0;
  let unpriced = 0;
  for (const a of attempts) {
    if (a.round !== round || !a.response) continue;
    input += a.response.usage.input;
    output += a.response.usage.output;
    if (a.cost === null) unpriced++;
    else cost += a.cost;
  }
  return { tokens: { input, output }, cost, unpriced };
}
