/**
 * The one checked query: ask Z3 for a state in which some goal fails under
 * the assumptions, replay its model with our own evaluator, and dispose it.
 * Every part of the verifier that asks the solver something goes through
 * `solveQuery`: refinement's obligations (prove.ts), the mutant screen
 * (driver.ts), the declarative checks (fact-prover.ts, same-step.ts) and
 * the well-formed counterexample search (counterexample-wellformed.ts). Each
 * is a policy over the tagged result; none disposes a model by hand.
 *
 * The model is lent to the caller's `use` for the time of that call and
 * disposed when it returns, unless `use` takes it with `lease.keep()`: then
 * the caller owns it (a refutation kept to build a counterexample later).
 */
import { type Interpretation, QuantifierEvalError, type Value, evaluate } from '../smt/eval.ts';
import { Snapshot } from '../smt/snapshot.ts';
import * as o from '../smt/ops.ts';
import type { SmtEngine, SmtModel } from '../smt/solver.ts';
import type { Term } from '../smt/term.ts';
import { undecided } from './outcome.ts';
import { phaseClock } from '../phases.ts';

export interface Query {
  /** The query asks for a state in which at least one of these is false. */
  readonly goals: readonly Term[];
  /** What is asserted beside the negated goals (instances of assumed facts, preferences), at the negation. */
  readonly assume: (negated: Term) => readonly Term[];
  /** Limit of this query (ms; 0 or absent: none, but `deadline` still applies). */
  readonly timeoutMs?: number;
  /** Wall-clock time (`Date.now()`) by which the verification must be done: past it, no query is made. */
  readonly deadline?: number;
  /** Z3's solve-eqs before the SMT core (`CheckOptions.solveEqs`; default true). */
  readonly solveEqs?: boolean;
  /** Z3's resource limit for this query (`CheckOptions.rlimit`; absent: none). */
  readonly rlimit?: number;
}

/** What `use` may do with the model while it is lent. */
export interface Lease {
  readonly model: SmtModel;
  /** Our evaluator replayed the refutation (false: it is on the solver's word, the result is 'on-word'). */
  readonly replayed: boolean;
  /** `t` under the model (true, false, a number), or 'quantified' where a quantifier stops the evaluation. */
  value(t: Term): Value | 'quantified';
  /** Keeps the model past `use`: from now on the caller disposes it. */
  keep(): SmtModel;
  /** The model's values read so far (every assertion's and goal's), kept past the model (smt/snapshot.ts). */
  snapshot(): Snapshot;
}

/** How a query came out. */
export type Checked<T> =
  /** unsat: every goal holds under the assumptions. */
  | { readonly kind: 'proved'; readonly ms: number }
  /** sat, and our evaluator agrees: every assertion holds and some goal is false under the model. */
  | { readonly kind: 'refuted'; readonly ms: number; readonly value: T }
  /**
   * sat, but a quantifier (which our evaluator cannot evaluate) stops the
   * replay: an assertion, or the only goals that may fail, have one. The
   * refutation is the solver's word, as upstream takes every refutation.
   */
  | { readonly kind: 'on-word'; readonly ms: number; readonly value: T }
  /** sat, and our evaluator disagrees with the model: an internal error, never a proof. */
  | { readonly kind: 'inconsistent'; readonly ms: number }
  /** The solver gave no answer (its limit, the verification's budget, or a genuine unknown). */
  | { readonly kind: 'undecided'; readonly ms: number; readonly outcome: 'timeout' | 'unknown'; readonly reason: string };

/**
 * `Query.solveEqs` of the declarative checks' queries (fact-prover.ts,
 * same-step.ts): off, 16% less solver time on the corpus's near misses
 * (`CheckOptions.solveEqs`).
 */
export const DECLARATIVE_SOLVE_EQS = false;

/** The reason of a query not asked because the verification's budget ran out. */
export const BUDGET_SPENT = 'timeout: the verification budget is spent';

/** The reason of an obligation whose model our evaluator does not confirm. */
export const REPLAY_FAILED = 'internal error: the solver model does not replay under our evaluator';

/** The limit of the next query: `timeoutMs` capped by what is left until `deadline`. */
function queryLimit(timeoutMs: number | undefined, deadline: number | undefined): number | undefined | 'spent' {
  if (deadline === undefined) return timeoutMs;
  const left = deadline - Date.now();
  if (left < 1) return 'spent';
  return timeoutMs && timeoutMs > 0 ? Math.min(timeoutMs, left) : left;
}

/** The negation the query asserts: some goal fails. */
export function negation(goals: readonly Term[]): Term {
  return o.not(o.and(...goals));
}

/**
 * Asks one query on a fresh solver and replays a model. `use` sees the model
 * of a refuted or on-word result (not of an inconsistent one), once; its
 * return value is the result's `value`.
 */
export async function solveQuery<T = undefined>(engine: SmtEngine, q: Query, use?: (lease: Lease) => T): Promise<Checked<T>> {
  const limit = queryLimit(q.timeoutMs, q.deadline);
  if (limit === 'spent') return { kind: 'undecided', ms: 0, outcome: 'timeout', reason: BUDGET_SPENT };
  const negated = negation(q.goals);
  const asserted = phaseClock.timed('terms', () => q.assume(negated));
  const r = await engine.check([...asserted, negated], { timeoutMs: limit, solveEqs: q.solveEqs, ...(q.rlimit ? { rlimit: q.rlimit } : {}) });
  if (r.status === 'unsat') return { kind: 'proved', ms: r.ms };
  if (r.status === 'unknown') return { kind: 'undecided', ms: r.ms, outcome: undecided(r.reason), reason: r.reason };
  let kept = false;
  try {
    return phaseClock.timed('replay', () => replay(r.model, r.ms, q, asserted, use, () => (kept = true)));
  } finally {
    if (!kept) r.model.dispose();
  }
}

/** The checked result of a sat query (`ms` its time): its model replayed by our evaluator, then lent to `use`. */
function replay<T>(model: SmtModel, ms: number, q: Query, asserted: readonly Term[], use: ((lease: Lease) => T) | undefined, keep: () => void): Checked<T> {
  const snapshot = new Snapshot();
  const value = valuesUnder(snapshot.record(model));
  const assumed = asserted.map(value);
  const goals = q.goals.map(value);
  // A false assertion, or no goal that may be false: the model is not what Z3 says it is.
  if (assumed.includes(false) || !goals.some((g) => g !== true)) return { kind: 'inconsistent', ms };
  const onWord = assumed.includes('quantified') || !goals.includes(false);
  const lease: Lease = {
    model,
    replayed: !onWord,
    value,
    keep: () => (keep(), model),
    snapshot: () => snapshot,
  };
  const v = use ? use(lease) : (undefined as T);
  return { kind: onWord ? 'on-word' : 'refuted', ms, value: v };
}

/** What the solver answered a checked query (a model's validity aside). */
export function solverStatus(r: Checked<unknown>): 'unsat' | 'sat' | 'unknown' {
  return r.kind === 'proved' ? 'unsat' : r.kind === 'undecided' ? 'unknown' : 'sat';
}

/** How `solveFromSubset` went: the query's own result, and the queries it took. */
export interface SubsetChecked<T> {
  /** Proved, refuted (by a model of every assertion of the query) or undefined: ask the query itself. */
  readonly checked?: Extract<Checked<T>, { kind: 'proved' | 'refuted' }>;
  /** Each query asked: its answer and time. */
  readonly asked: readonly { readonly status: 'unsat' | 'sat' | 'unknown'; readonly ms: number }[];
}

/**
 * Asks `q` with only some of its assertions first (docs/lemmas.md, "Reusing
 * what is known", item 8): `start`, then every assertion of `q` that a model
 * of the smaller query falsifies, at most `rounds` queries in all. Fewer
 * assertions with no model prove the query; a model under which our
 * evaluator finds every assertion of `q` true and a goal false refutes it,
 * as `q` itself would be refuted. Anything else (a round limit, a timeout, a
 * quantifier our evaluator cannot read) settles nothing: the caller asks `q`.
 * `use` sees the model of a refutation, as `solveQuery`'s does.
 */
export async function solveFromSubset<T>(
  engine: SmtEngine,
  q: Query,
  start: readonly Term[],
  rounds: number,
  use?: (lease: Lease) => T,
): Promise<SubsetChecked<T>> {
  const negated = negation(q.goals);
  const all = q.assume(negated);
  const asked: { status: 'unsat' | 'sat' | 'unknown'; ms: number }[] = [];
  let subset = [...start];
  for (let round = 0; round < rounds; round++) {
    let falsified: Term[] | undefined;
    const r = await solveQuery(engine, { ...q, assume: () => subset }, (lease) => {
      const values = all.map((t) => lease.value(t));
      if (values.includes('quantified')) return { genuine: false as const };
      falsified = all.filter((_, i) => values[i] === false);
      return falsified.length === 0 ? { genuine: true as const, value: use ? use(lease) : (undefined as T) } : { genuine: false as const };
    });
    asked.push({ status: solverStatus(r), ms: r.ms });
    if (r.kind === 'proved') return { checked: r, asked };
    if (r.kind !== 'refuted') return { asked };
    if (r.value.genuine) return { checked: { kind: 'refuted', ms: r.ms, value: r.value.value }, asked };
    // The model breaks some assertion the subset left out: that one is needed.
    if (!falsified?.length) return { asked };
    subset = [...subset, ...falsified];
  }
  return { asked };
}

/**
 * Does `interp` refute the query without asking the solver: every assertion
 * true and some goal false under it, as a replayed model must be? Then the
 * query is satisfiable, as the solver would find (a model from an earlier
 * query, kept as a snapshot, often refutes the next answer's like query).
 * False where a quantifier stops the evaluation.
 */
export function refutes(q: Pick<Query, 'goals' | 'assume'>, interp: Interpretation): boolean {
  return phaseClock.timed('replay', () => {
    const value = valuesUnder(interp);
    return q.goals.some((g) => value(g) === false) && phaseClock.timed('terms', () => q.assume(negation(q.goals))).every((t) => value(t) === true);
  });
}

/** Terms' values under `interp` (one memo for all), or 'quantified' where a quantifier stops our evaluator. */
function valuesUnder(interp: Interpretation): (t: Term) => Value | 'quantified' {
  const memo = new Map<number, Value>();
  return (t) => {
    try {
      return evaluate(t, interp, memo);
    } catch (e) {
      if (e instanceof QuantifierEvalError) return 'quantified';
      throw e;
    }
  };
}

/** The status an obligation gets from an undecided or inconsistent query, with its reason. */
export function unsettled(c: Extract<Checked<unknown>, { kind: 'undecided' | 'inconsistent' }>): { status: 'timeout' | 'unknown'; reason: string } {
  return c.kind === 'inconsistent' ? { status: 'unknown', reason: REPLAY_FAILED } : { status: c.outcome, reason: c.reason };
}
