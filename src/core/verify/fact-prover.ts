/**
 * The per-fact prover of the declarative checks (docs/design.md §3, item 2):
 * proves facts (quantified formulas) from assumed facts, one query per fact,
 * so a failure names its fact. The statements are built on it: a spec step's
 * lemmas (step-lemmas.ts) and the handler-independent checks
 * (engine-proofs.ts).
 *
 * Queries are quantifier-free. Each fact to prove is skolemised and checked
 * in a query of its own; the assumed facts are instantiated at the query's
 * ground terms (smt/instantiate.ts): the goal's, the caller's extra roots (a
 * step's footprint), and the goal's skolems through the per-domain seed. A
 * goal that is term for term an assumed fact (the step left what it reads
 * alone) needs no query.
 *
 * Instantiation is incomplete by nature: "proved" is sound, while "failed"
 * means a model of the goal's negation and of every instance asserted, which
 * our evaluator confirms; a missing instance could make it spurious.
 *
 * Every query is a checked query (query.ts): a refutation through a spec's
 * quantifier is a failure on the solver's word (QUANTIFIED_LEMMA), never an
 * escaping error.
 */
import { SEED_PREFIX, isDerived } from '../kernel/lemmas/helpers.ts';
import * as o from '../smt/ops.ts';
import type { CheckResult, SmtEngine } from '../smt/solver.ts';
import { instantiate, skolemize } from '../smt/instantiate.ts';
import type { Quantified } from '../smt/quantified.ts';
import type { Snapshot } from '../smt/snapshot.ts';
import { BOOL, type Term } from '../smt/term.ts';
import { worst } from './outcome.ts';
import { DECLARATIVE_SOLVE_EQS, type Query, solveFromSubset, solveQuery, refutes, solverStatus, unsettled } from './query.ts';
import type { ObligationResult } from './verdict.ts';
import { type CaseSymbols, type ReachableCase, refuteInCases } from './state-bank.ts';

/** How one lemma (or invariant, or corollary) fared: an obligation result that always has its time. */
export interface LemmaResult extends ObligationResult {
  /** Wall time of its queries, instantiation included. */
  readonly ms: number;
  /** The facts a counterexample falsifies (failed only). */
  readonly failedParts?: string[];
  /** Some failure is on the solver's word: the spec has a quantifier, so its model was not replayed. */
  readonly onWord?: true;
}

/** The reason of a declarative fact that the solver refutes through a quantifier. */
export const QUANTIFIED_LEMMA =
  'the solver refutes a declarative check of this spec; it has a quantifier, so the refutation is not replayed';

/** How facts are proved (`proveFacts`), whatever the statement. */
export interface FactOptions {
  /** Per-query solver timeout. */
  readonly timeoutMs?: number;
  /** Called after each solver query (for benchmarks and debugging). */
  readonly onQuery?: (q: QueryInfo) => void;
  /** Facts already known to hold (declarative.ts): not asked again, and reported proved. */
  readonly memo?: FactMemo;
  /**
   * Queries a fact with the oracle's fact beside it may take without the
   * instances before its full query (query.ts, `solveFromSubset`; default
   * `SUBSET_ROUNDS`, 0: ask the full query at once).
   */
  readonly subsetRounds?: number;
  /**
   * Reachable states in which to look for a counterexample before the full
   * query (state-bank.ts, `refuteInCases`): the step's symbolic pre-state
   * and arguments, and the handler's cases.
   */
  readonly reachable?: { readonly symbols: CaseSymbols; readonly cases: readonly ReachableCase[] };
}

/**
 * Queries of a fact without the instances before its full query. One: on
 * the corpus's near misses it proves every fact the full query proves, and
 * a model of it is never one of the full query (the pre-state is
 * unconstrained); more rounds, each adding what the last model broke, did
 * not reach the refutations and cost more than they saved (docs/lemmas.md,
 * "Reusing what is known", 8).
 */
export const SUBSET_ROUNDS = 1;

/**
 * What the caller knows about facts of the statement, and learns from the
 * check. A fact is named by its group and its name: the group is
 * `FROM_INVARIANTS` (step-lemmas.ts) for an invariant carried over by the invariants alone,
 * `fromLemmas(set)` (step-lemmas.ts) for one carried over under each lemma of `set`
 * (upstream's statement), and a lemma's name for its facts (proved from the
 * invariants and that lemma). Every group's assumptions are fixed by the
 * handler and the step's pre-state, so a fact proved for one step of a
 * handler is proved for any other step whose fact is the same formula.
 */
export interface FactMemo {
  /** Is this fact (of the checked step) known to hold? */
  known(group: string, fact: Quantified): boolean;
  /** This fact (of the checked step) was just proved. */
  proved(group: string, fact: Quantified): void;
  /** The facts in the order to ask them when stopping at the first failure: the likeliest to fail first. */
  order?(group: string, facts: readonly Quantified[]): readonly Quantified[];
  /**
   * This fact (of the checked step) was refuted; `witness` is the model
   * that refuted it, as a snapshot (absent when a kept one did).
   */
  failed?(group: string, fact: Quantified, witness?: Snapshot): void;
  /**
   * Models that refuted this fact for earlier steps of the handler, kept as
   * snapshots: one that refutes the query as it stands now settles it
   * without the solver (query.ts, `refutes`).
   */
  witnesses?(group: string, fact: Quantified): readonly Snapshot[];
  /**
   * A fact of another step of the handler (the oracle's fact of this name)
   * proved under this group's assumptions: it holds in every state they
   * allow, so asserting it at the goal's skolems leaves the query's genuine
   * counterexamples as they are and rules out spurious ones the solver would
   * otherwise have to search (docs/lemmas.md, "Reusing what is known", 7).
   */
  alongside?(group: string, fact: Quantified): Quantified | undefined;
}

export interface QueryInfo {
  /** "<lemma>/<fact>". */
  readonly tag: string;
  /** Instances asserted with the goal. */
  readonly instances: number;
  /** The solver's answer (a model's validity is checked afterwards). */
  readonly status: CheckResult['status'];
  readonly ms: number;
  /** No solver was asked: a kept model refuted the query (`FactMemo.witnesses`). */
  readonly witness?: true;
  /** A query with only some assertions (`solveFromSubset`): its round, from 1. */
  readonly subset?: number;
  /** No solver was asked: a reachable state refuted the query (`FactOptions.reachable`). */
  readonly reachable?: true;
}

/**
 * Skolemises a goal fact. Goals over the same domain share one tuple of
 * skolem constants: refuting "forall x. A(x) and forall x. B(x)" needs some
 * x with not A(x) or some x with not B(x), which is some x with (not A(x) or
 * not B(x)). Shared skolems keep the ground terms, and so the instances,
 * few. Returns the goal and the seed application that lets the assumptions
 * of the same domain fire at the skolems.
 */
function skolemizeShared(f: Quantified, tag: string): { goal: Term; vars: Term[]; seed?: Term } {
  const seed = f.triggers.find((t) => t.fn.startsWith(SEED_PREFIX));
  const { goal, vars } = skolemize(f, tag, seed ? seed.fn.slice(SEED_PREFIX.length) : f.name);
  if (!seed || vars.length === 0) return { goal, vars };
  return { goal, vars, seed: o.app(o.declareFun(seed.fn, [...f.vars], BOOL), vars) };
}

/** A goal fact skolemised (`skolemizeShared`). */
type Skolemised = ReturnType<typeof skolemizeShared>;

/** The query that asks one fact, as both the solver and the reachable cases see it. */
interface FactQuery {
  readonly query: Query;
  /** The oracle's fact at the same skolems (`FactMemo.alongside`), if known. */
  readonly beside?: Term;
  /** How many assumptions the query carries (0 until they are made). */
  instances(): number;
}

/**
 * The query for fact `f` skolemised as `s`: its goal, and the instances of
 * `assumed` at the goal's terms, the seed and `extraRoots` (the step's
 * footprint), with the oracle's fact beside them; the instances are made
 * once, when first asked for (by a kept model, a case or the solver).
 */
function factQuery(f: Quantified, s: Skolemised, assumed: readonly Quantified[], extraRoots: readonly Term[], opts: FactOptions, group?: string): FactQuery {
  const beside = group === undefined ? undefined : opts.memo?.alongside?.(group, f)?.body(s.vars);
  let found: Term[] | undefined;
  const assume = (negated: Term) => (found ??= [...instantiate(assumed, [negated, ...(s.seed ? [s.seed] : []), ...extraRoots]), ...(beside ? [beside] : [])]);
  return { query: { goals: [s.goal], assume, timeoutMs: opts.timeoutMs, solveEqs: DECLARATIVE_SOLVE_EQS }, beside, instances: () => found?.length ?? 0 };
}

interface FactsOutcome {
  /**
   * One per goal, in order (stopped at the first failure: one per goal
   * asked); a failure on the solver's word has the reason QUANTIFIED_LEMMA.
   */
  readonly results: ObligationResult[];
  readonly ms: number;
  /** Solver queries issued. */
  readonly queries: number;
}

/**
 * Proves each of `goals` (skolemised, tagged `tag`) from the instances of
 * `assumed`, one query per goal. A goal's instances are those the triggers
 * find at its own ground terms and at `extraRoots` (the step's footprint),
 * by depth. Returns one result per goal, in order; a failure is a model that
 * our evaluator confirms falsifies the goal (otherwise the result is
 * unknown: the solver and the evaluator disagree, never a proof).
 */
export async function proveFacts(
  goals: readonly Quantified[],
  assumed: readonly Quantified[],
  tag: string,
  engine: SmtEngine,
  opts: FactOptions,
  extraRoots: readonly Term[] = [],
  group?: string,
  stopAtFirst = false,
): Promise<FactsOutcome> {
  const started = Date.now();
  const sameFact = new Map(assumed.map((f) => [f.name, f]));
  const memo = group === undefined ? undefined : opts.memo;
  const byName = new Map<string, ObligationResult>();
  const learnt: Quantified[] = [];
  let queries = 0;
  const done = () => stopAtFirst && [...byName.values()].some((r) => r.status !== 'proved');
  // Stopping at the first failure, the facts likeliest to fail go first.
  const order = stopAtFirst && memo?.order ? memo.order(group!, goals) : goals;
  const open: { f: Quantified; s: Skolemised }[] = [];
  for (const f of order) {
    if (memo?.known(group!, f)) {
      byName.set(f.name, { name: f.name, status: 'proved', ms: 0 });
      continue;
    }
    learnt.push(f);
    const sk = skolemizeShared(f, tag);
    // A goal that is, term for term, an assumed fact at the same skolems (the
    // step left everything it reads alone) holds without a query.
    const assumedTwin = sameFact.get(f.name);
    if ((sk.goal.op === 'const' && sk.goal.value === true) || (assumedTwin && assumedTwin.body(sk.vars) === sk.goal)) byName.set(f.name, { name: f.name, status: 'proved', ms: 0 });
    else open.push({ f, s: sk });
  }
  for (const { f, s: sk } of open) {
    if (done()) break;
    // Built only for a fact that is asked (stopping at a failure leaves the rest).
    const { query, beside, instances } = factQuery(f, sk, assumed, extraRoots, opts, group);
    // A model that refuted this fact for an earlier step often refutes it again: tried first, without the solver.
    const t0 = Date.now();
    if (memo?.witnesses?.(group!, f).some((w) => refutes(query, w))) {
      const ms = Date.now() - t0;
      opts.onQuery?.({ tag: `${tag}/${f.name}`, instances: instances(), status: 'sat', ms, witness: true });
      byName.set(f.name, { name: f.name, status: 'failed', ms });
      memo.failed?.(group!, f);
      continue;
    }
    // With the oracle's fact beside it, the goal seldom needs the instances:
    // asked without them first (a model of that settles only if it is one
    // of the full query).
    if (beside && opts.subsetRounds !== 0) {
      const lean = await solveFromSubset(engine, query, [beside], opts.subsetRounds ?? SUBSET_ROUNDS, (lease) => lease.snapshot());
      queries += lean.asked.length;
      lean.asked.forEach((a, i) => opts.onQuery?.({ tag: `${tag}/${f.name}`, instances: 0, status: a.status, ms: a.ms, subset: i + 1 }));
      const c = lean.checked;
      const ms = lean.asked.reduce((a, q) => a + q.ms, 0);
      if (c?.kind === 'proved') {
        byName.set(f.name, { name: f.name, status: 'proved', ms });
        continue;
      }
      if (c?.kind === 'refuted') {
        byName.set(f.name, { name: f.name, status: 'failed', ms });
        memo?.failed?.(group!, f, c.value);
        continue;
      }
    }
    const r = await solveQuery(engine, query, (lease) => lease.snapshot());
    queries++;
    const status = solverStatus(r);
    opts.onQuery?.({ tag: `${tag}/${f.name}`, instances: instances(), status, ms: r.ms });
    if (r.kind === 'proved') byName.set(f.name, { name: f.name, status: 'proved', ms: r.ms });
    else if (r.kind === 'refuted') byName.set(f.name, { name: f.name, status: 'failed', ms: r.ms });
    else if (r.kind === 'on-word') byName.set(f.name, { name: f.name, status: 'failed', ms: r.ms, reason: QUANTIFIED_LEMMA });
    else byName.set(f.name, { name: f.name, ms: r.ms, ...unsettled(r) });
    if (byName.get(f.name)!.status === 'failed') memo?.failed?.(group!, f, r.kind === 'refuted' ? r.value : undefined);
  }
  if (memo) for (const f of learnt) if (byName.get(f.name)?.status === 'proved') memo.proved(group!, f);
  // In the goals' order; stopped early, only the facts settled so far.
  return { results: goals.flatMap((f) => byName.get(f.name) ?? []), ms: Date.now() - started, queries };
}

/**
 * The first of `goals` that fails in a reachable state (state-bank.ts,
 * `refuteInCases`), as its result, or undefined. Each goal is skolemised as
 * `proveFacts` does, so a case is a model of the very query that would ask
 * it; a failure found so is kept as that fact's model (`FactMemo.failed`).
 */
export function failingInCases(
  goals: readonly Quantified[],
  assumed: readonly Quantified[],
  tag: string,
  opts: FactOptions,
  extraRoots: readonly Term[],
  group: string,
): ObligationResult | undefined {
  const reachable = opts.reachable;
  if (!reachable?.cases.length) return undefined;
  for (const f of goals) {
    const t0 = Date.now();
    const sk = skolemizeShared(f, tag);
    if (sk.goal.op === 'const') continue;
    const { query, instances } = factQuery(f, sk, assumed, extraRoots, opts, group);
    const model = refuteInCases(query, sk.vars, reachable.symbols, reachable.cases, extraRoots);
    if (!model) continue;
    const ms = Date.now() - t0;
    opts.onQuery?.({ tag: `${tag}/${f.name}`, instances: instances(), status: 'sat', ms, reachable: true });
    opts.memo?.failed?.(group, f, model);
    return { name: f.name, status: 'failed', ms };
  }
  return undefined;
}

/** Folds per-fact results into one entry (the worst outcome, outcome.ts), naming the failed facts. */
export function lemmaResult(name: string, results: readonly ObligationResult[], ms: number): LemmaResult {
  const status = worst(results.map((r) => r.status));
  const failed = results.filter((r) => r.status === 'failed');
  if (status !== 'failed') return { name, status, ms };
  return { name, status, ms, failedParts: failed.map((r) => r.name), ...(failed.some((r) => r.reason === QUANTIFIED_LEMMA) ? { onWord: true as const } : {}) };
}

/**
 * Proves every fact of `goals` (skolemised, derived facts skipped) from the
 * facts `assumed` (instantiated), as one entry named `name`. For statements of one's own.
 */
export function proveFrom(
  name: string,
  goals: readonly Quantified[],
  assumed: readonly Quantified[],
  engine: SmtEngine,
  opts: FactOptions = {},
): Promise<LemmaResult> {
  return engine.exclusive(async () => {
    const r = await proveFacts(goals.filter((f) => !isDerived(f)), assumed, name, engine, opts);
    return lemmaResult(name, r.results, r.ms);
  });
}
