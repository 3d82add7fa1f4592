/**
 * The declarative checks (docs/design.md §3, item 2). For one
 * handler's spec, from a fresh symbolic pre-state s and its post-state s'
 * (already `If(cond, new, s)`):
 *
 *   spec_invariants(s)            ⇒ spec_invariants(s')
 *   spec_invariants(s) ∧ L(s)     ⇒ L(s')          for every lemma L
 *
 * Queries are quantifier-free. Each fact to prove is skolemised and checked
 * in a query of its own, so a failure names its fact; the assumed facts are
 * instantiated at the query's ground terms (smt/instantiate.ts): the goal's,
 * the step's footprint (the points it updates), and the goal's skolems
 * through the per-domain seed. A goal that is term for term an assumed fact
 * (the step left what it reads alone) needs no query. An invariant not
 * provable from the invariants alone is retried with each lemma assumed as
 * well, which is upstream's statement (spec_invariants ∧ L ⇒
 * spec_invariants' ∧ L', per lemma).
 *
 * Instantiation is incomplete by nature: "proved" is sound, while "failed"
 * means a model of the goal's negation and of every instance asserted, which
 * our evaluator confirms; a missing instance could make it spurious.
 *
 * Every query is a checked query (query.ts): a refutation through a spec's
 * quantifier is a failure on the solver's word (QUANTIFIED_LEMMA), never an
 * escaping error.
 *
 * Handler-independent checks, kept per engine in the worker's cache object
 * (caches.ts): each corollary follows from its lemma and the invariants, and
 * the boot witness (an instance of initial()) satisfies the invariants, every
 * lemma and every corollary.
 */
import { COROLLARIES, CHECKED_LEMMAS, LEMMAS, type Lemma, bootWitness, findLemma } from '../kernel/lemmas/index.ts';
import { SEED_PREFIX, isDerived } from '../kernel/lemmas/helpers.ts';
import { specInvariants } from '../kernel/spec-invariants.ts';
import { type AbstractState, fieldMaps, freshState } from '../kernel/state.ts';
import * as o from '../smt/ops.ts';
import type { CheckResult, SmtEngine } from '../smt/solver.ts';
import { instantiate, skolemize } from '../smt/instantiate.ts';
import type { Quantified } from '../smt/quantified.ts';
import type { Snapshot } from '../smt/snapshot.ts';
import { BOOL, type Term, variable } from '../smt/term.ts';
import { type CacheStats, type SlotValue, cacheSlot, remember } from './caches.ts';
import type { VerifyEnv } from './env.ts';
import { worst } from './outcome.ts';
import { DECLARATIVE_SOLVE_EQS, type Query, checkFromSubset, checkQuery, refutes, solverStatus, unsettled } from './query.ts';
import type { SymbolicStep } from './steps.ts';
import type { ObligationResult } from './verdict.ts';
import { BoundedMap } from '../bounded-map.ts';
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

export interface LemmaReport {
  /** One entry per lemma checked (with `stopAtFailure`, up to the first one not proved). */
  readonly lemmas: LemmaResult[];
  /** One entry per spec invariant. */
  readonly invariants: LemmaResult[];
  /** `stopAtFailure` stopped the check: something is not proved, and not every lemma was checked. */
  readonly stopped?: true;
}

export interface StepLemmaOptions {
  /** Per-query solver timeout. */
  readonly timeoutMs?: number;
  /** Lemma names to check (default: every lemma but the report-only ones). */
  readonly only?: readonly string[];
  /** Called after each solver query (for benchmarks and debugging). */
  readonly onQuery?: (q: QueryInfo) => void;
  /** Facts already known to hold (declarative.ts): not asked again, and reported proved. */
  readonly memo?: FactMemo;
  /**
   * Stop at the first lemma (or invariant) that ends not proved, and leave
   * out the rest: the check then is not proved, as the whole check would be
   * (strict grading needs no more). Lemmas in `first` go first, in its order.
   */
  readonly stopAtFailure?: boolean;
  readonly first?: readonly string[];
  /**
   * Queries a fact with the oracle's fact beside it may take without the
   * instances before its full query (query.ts, `checkFromSubset`; default
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
 * `FROM_INVARIANTS` for an invariant carried over by the invariants alone,
 * `fromLemmas(set)` for one carried over under each lemma of `set`
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

/** The group of invariants proved from the invariants alone. */
const FROM_INVARIANTS = 'inv';

/** The group of invariants proved under each lemma of `lemmas`. */
export function fromLemmas(lemmas: readonly string[]): string {
  return `${FROM_INVARIANTS}+${lemmas.join(',')}`;
}

/** Is `group` one of invariants (`FROM_INVARIANTS` or `fromLemmas(...)`), not a lemma's? */
export function isInvariantGroup(group: string): boolean {
  return group === FROM_INVARIANTS || group.startsWith(`${FROM_INVARIANTS}+`);
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
  /** A query with only some assertions (`checkFromSubset`): its round, from 1. */
  readonly subset?: number;
  /** No solver was asked: a reachable state refuted the query (`StepLemmaOptions.reachable`). */
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
function factQuery(f: Quantified, s: Skolemised, assumed: readonly Quantified[], extraRoots: readonly Term[], opts: StepLemmaOptions, group?: string): FactQuery {
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
 * The ground terms a spec step writes with: each field of `post` is read at
 * fresh probe indices, and the applications in the result that do not
 * mention a probe are kept (the step's condition, the points it updates, the
 * slots a Refcnt update swaps). Instantiating at them gives every goal the
 * facts about what the step touched, whichever goal mentions them.
 */
export function footprint(post: AbstractState): Term[] {
  const reads: Term[] = [];
  const probeNames = new Set<string>();
  for (const [path, value] of post) {
    fieldMaps(value).forEach((m, k) => {
      const xs = m.domain.map((sort, i) => {
        const name = `probe.${path}.${k}.${i}`;
        probeNames.add(name);
        return variable(name, sort);
      });
      reads.push(m.apply(xs));
    });
  }
  const hasProbe = new Map<number, boolean>();
  const out: Term[] = [];
  const visit = (t: Term): boolean => {
    const hit = hasProbe.get(t.id);
    if (hit !== undefined) return hit;
    let probe = t.op === 'var' && probeNames.has(t.name!);
    for (const a of t.args) if (visit(a)) probe = true;
    hasProbe.set(t.id, probe);
    if (!probe && t.op === 'app') out.push(t);
    return probe;
  };
  for (const r of reads) visit(r);
  return out;
}

/**
 * Proves each of `goals` (skolemised, tagged `tag`) from the instances of
 * `assumed`, one query per goal. A goal's instances are those the triggers
 * find at its own ground terms and at `extraRoots` (the step's footprint),
 * by depth. Returns one result per goal, in order; a failure is a model that
 * our evaluator confirms falsifies the goal (otherwise the result is
 * unknown: the solver and the evaluator disagree, never a proof).
 */
async function proveFacts(
  goals: readonly Quantified[],
  assumed: readonly Quantified[],
  tag: string,
  engine: SmtEngine,
  opts: StepLemmaOptions,
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
      const lean = await checkFromSubset(engine, query, [beside], opts.subsetRounds ?? SUBSET_ROUNDS, (lease) => lease.snapshot());
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
    const r = await checkQuery(engine, query, (lease) => lease.snapshot());
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
function failingInCases(
  goals: readonly Quantified[],
  assumed: readonly Quantified[],
  tag: string,
  opts: StepLemmaOptions,
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
function lemmaResult(name: string, results: readonly ObligationResult[], ms: number): LemmaResult {
  const status = worst(results.map((r) => r.status));
  const failed = results.filter((r) => r.status === 'failed');
  if (status !== 'failed') return { name, status, ms };
  return { name, status, ms, failedParts: failed.map((r) => r.name), ...(failed.some((r) => r.reason === QUANTIFIED_LEMMA) ? { onWord: true as const } : {}) };
}

function selectLemmas(only?: readonly string[]): Lemma[] {
  const names = only ?? CHECKED_LEMMAS;
  return names.map((n) => {
    const l = findLemma(n);
    if (!l) throw new Error(`unknown lemma '${n}' (known: ${LEMMAS.map((x) => x.name).join(', ')})`);
    return l;
  });
}

/**
 * The declarative checks of one handler's spec step: the spec invariants and
 * each selected lemma are preserved from `pre` to `post`. It runs as one
 * engine job (`SmtEngine.exclusive`), as do the corollary and initial-state
 * checks: never call them from inside another job.
 */
export function proveStepLemmas(input: SymbolicStep, engine: SmtEngine, opts: StepLemmaOptions = {}): Promise<LemmaReport> {
  return engine.exclusive(() => proveStepLemmasNow(input, engine, opts));
}

async function proveStepLemmasNow(input: SymbolicStep, engine: SmtEngine, opts: StepLemmaOptions): Promise<LemmaReport> {
  const { pre, post, handler } = input;
  const touched = footprint(post);
  const lemmas = selectLemmas(opts.only);
  const lemmaSet = fromLemmas(lemmas.map((l) => l.name));
  const invPre = specInvariants(pre);
  const invPost = specInvariants(post);
  const memo = opts.memo;
  // An invariant is known if it was carried over by the invariants alone or under this lemma set.
  const invMemo: FactMemo | undefined = memo && {
    known: (g, f) => memo.known(g, f) || memo.known(lemmaSet, f),
    proved: (g, f) => memo.proved(g, f),
  };

  const inv = await proveFacts(invPost, invPre, 'inv', engine, { ...opts, memo: invMemo }, touched, FROM_INVARIANTS);
  const invariants = new Map<string, LemmaResult>();
  invPost.forEach((f, i) => {
    const r = inv.results[i];
    invariants.set(f.name, { name: f.name, status: r.status, ms: r.ms ?? 0, ...(r.reason === QUANTIFIED_LEMMA ? { onWord: true as const } : {}) });
  });
  // Invariants the invariants alone do not carry over: upstream proves them
  // next to each lemma, so they hold if every lemma's assumption suffices.
  // One lemma that does not suffice settles it: no more retries.
  let retry = invPost.filter((f) => invariants.get(f.name)!.status !== 'proved');
  const retried = new Map<string, number>(retry.map((f) => [f.name, 0]));

  // A lemma included in others (nr_pages_refcnt in both isolation lemmas) is
  // proved once, from its own assumptions; those are part of every including
  // lemma's assumptions, so the proof serves each of them. What it cannot
  // prove alone is retried with the including lemma's assumptions. Only the
  // facts the including lemma still needs are asked.
  const ownResults = new Map<string, Map<string, ObligationResult>>();
  const own = async (name: string, needed: (f: Quantified) => boolean) => {
    let hit = ownResults.get(name);
    if (!hit) ownResults.set(name, (hit = new Map()));
    const l = findLemma(name)!;
    const goals = l.facts(post, pre, handler).filter((f) => !isDerived(f) && !hit.has(f.name) && needed(f));
    const out = await proveFacts(goals, [...invPre, ...l.facts(pre, pre, handler)], name, engine, opts, touched, name);
    goals.forEach((g, i) => hit.set(g.name, out.results[i]));
    return hit;
  };

  const results = new Map<string, LemmaResult>();
  const first = opts.first ?? [];
  const order = [...first.flatMap((n) => lemmas.find((l) => l.name === n) ?? []), ...lemmas.filter((l) => !first.includes(l.name))];
  let stopped = false;
  for (const lemma of order) {
    const started = Date.now();
    const assumed = [...invPre, ...lemma.facts(pre, pre, handler)];
    const goals = lemma.facts(post, pre, handler).filter((f) => !isDerived(f));
    const settled = new Map<string, ObligationResult>();
    const open = (f: Quantified) => !settled.has(f.name) && !memo?.known(lemma.name, f);
    if (lemma.reportOnly) for (const [k, r] of await own(lemma.name, () => true)) settled.set(k, r);
    if (opts.stopAtFailure && !lemma.reportOnly) {
      // Fact by fact, the likeliest to fail first: an included lemma's fact
      // from its own assumptions, and if that does not prove it, at once with
      // this lemma's (then final: one not proved settles the check).
      const includedBy = new Map<string, string>();
      for (const n of lemma.includes?.(handler) ?? []) for (const f of findLemma(n)!.facts(post, pre, handler)) includedBy.set(f.name, n);
      const ordered = memo?.order ? memo.order(lemma.name, goals) : goals;
      // Any fact that fails will do: one failing in a reachable state settles
      // the lemma before the solver is asked anything.
      const inCase = failingInCases(ordered.filter(open), assumed, lemma.name, opts, touched, lemma.name);
      if (inCase) settled.set(inCase.name, inCase);
      for (const g of inCase ? [] : ordered) {
        if (!open(g)) continue;
        const n = includedBy.get(g.name);
        const mine = n === undefined ? undefined : (await own(n, (f) => f.name === g.name)).get(g.name);
        if (mine?.status === 'proved') {
          settled.set(g.name, mine);
          continue;
        }
        const [r] = (await proveFacts([g], assumed, lemma.name, engine, opts, touched, lemma.name)).results;
        settled.set(g.name, r);
        if (r.status !== 'proved') break;
      }
    } else {
      for (const n of lemma.includes?.(handler) ?? []) {
        for (const [k, r] of await own(n, open)) if (r.status === 'proved') settled.set(k, r);
      }
    }
    const failedAlready = [...settled.values()].some((r) => r.status !== 'proved' && opts.stopAtFailure);
    const rest = failedAlready ? [] : goals.filter((g) => !settled.has(g.name));
    const out = await proveFacts(rest, assumed, lemma.name, engine, opts, touched, lemma.name, opts.stopAtFailure);
    for (const r of out.results) settled.set(r.name, r);
    const result = lemmaResult(lemma.name, goals.flatMap((g) => settled.get(g.name) ?? []), Date.now() - started);
    results.set(lemma.name, result);
    if (opts.stopAtFailure && result.status !== 'proved') {
      stopped = true;
      break;
    }
    if (retry.length > 0) {
      const again = await proveFacts(retry, assumed, `inv.${lemma.name}`, engine, opts, touched);
      retry.forEach((f, i) => retried.set(f.name, retried.get(f.name)! + (again.results[i].ms ?? 0)));
      const failing = retry.filter((_, i) => again.results[i].status !== 'proved');
      retry = retry.filter((_, i) => again.results[i].status === 'proved');
      // What one lemma's assumption does not carry over stays as the first pass left it: settled.
      if (opts.stopAtFailure && failing.length > 0) {
        stopped = true;
        break;
      }
    }
  }
  // What every lemma's assumption carried over holds.
  if (lemmas.length > 0 && !stopped) {
    for (const f of retry) {
      const first = invariants.get(f.name)!;
      invariants.set(f.name, { name: f.name, status: 'proved', ms: first.ms + retried.get(f.name)! });
      memo?.proved(lemmaSet, f);
    }
  }
  return { lemmas: lemmas.flatMap((l) => results.get(l.name) ?? []), invariants: [...invariants.values()], ...(stopped ? { stopped: true as const } : {}) };
}

/**
 * Proves every fact of `goals` (skolemised, derived facts skipped) from the
 * facts `assumed` (instantiated), as one entry named `name`. The building
 * block of the checks above, for statements of one's own.
 */
export function proveFrom(
  name: string,
  goals: readonly Quantified[],
  assumed: readonly Quantified[],
  engine: SmtEngine,
  opts: StepLemmaOptions = {},
): Promise<LemmaResult> {
  return engine.exclusive(async () => {
    const r = await proveFacts(goals.filter((f) => !isDerived(f)), assumed, name, engine, opts);
    return lemmaResult(name, r.results, r.ms);
  });
}

/** Options of the handler-independent checks. */
export interface EngineCheckOptions {
  readonly timeoutMs?: number;
}

/** The handler-independent checks' results, per engine, in a cache object. */
class EngineChecks implements SlotValue {
  readonly corollaries: BoundedMap<SmtEngine, Promise<LemmaResult[]>>;
  readonly initial: BoundedMap<SmtEngine, Promise<LemmaResult[]>>;

  constructor(engines: number) {
    this.corollaries = new BoundedMap(engines);
    this.initial = new BoundedMap(engines);
  }

  clear(): void {
    this.corollaries.clear();
    this.initial.clear();
  }

  stats(): Partial<CacheStats> {
    return { engineChecks: this.corollaries.size + this.initial.size };
  }
}

const ENGINE_CHECKS = cacheSlot((limits) => new EngineChecks(limits.engines));

/** `make()`'s results for `env`'s engine, kept in `env`'s caches (a failure is not kept). */
function perEngine(env: Pick<VerifyEnv, 'engine' | 'caches'>, which: 'corollaries' | 'initial', make: () => Promise<LemmaResult[]>): Promise<LemmaResult[]> {
  return remember(env.caches.slot(ENGINE_CHECKS)[which], env.engine, make, () => true);
}

/** Each corollary follows from its lemma and the spec invariants, in any state. Kept per engine. */
export function checkCorollaries(env: Pick<VerifyEnv, 'engine' | 'caches'>, opts: EngineCheckOptions = {}): Promise<LemmaResult[]> {
  const { engine } = env;
  return perEngine(env, 'corollaries', () =>
    engine.exclusive(async () => {
      const out: LemmaResult[] = [];
      for (const c of COROLLARIES) {
        const s = freshState(`cor.${c.name}.`);
        const assumed = [...specInvariants(s), ...findLemma(c.lemma)!.facts(s, s)];
        const r = await proveFacts(c.facts(s), assumed, c.name, engine, opts);
        out.push(lemmaResult(c.name, r.results, r.ms));
      }
      return out;
    }),
  );
}

/**
 * initial() ∧ spec_invariants ∧ L is satisfiable, for every lemma and
 * corollary: the boot witness (an instance of initial()) satisfies each fact.
 * One entry for the invariants, then one per lemma and corollary. Kept per
 * engine.
 */
export function checkInitial(env: Pick<VerifyEnv, 'engine' | 'caches'>, opts: EngineCheckOptions = {}): Promise<LemmaResult[]> {
  const { engine } = env;
  return perEngine(env, 'initial', () =>
    engine.exclusive(async () => {
      const w = bootWitness();
      const groups: [string, Quantified[]][] = [
        ['spec_invariants', specInvariants(w)],
        ...LEMMAS.map((l): [string, Quantified[]] => [l.name, l.facts(w, w).filter((f) => !isDerived(f))]),
        ...COROLLARIES.map((c): [string, Quantified[]] => [c.name, c.facts(w)]),
      ];
      const out: LemmaResult[] = [];
      for (const [name, facts] of groups) {
        const r = await proveFacts(facts, [], `init.${name}`, engine, opts);
        out.push(lemmaResult(name, r.results, r.ms));
      }
      return out;
    }),
  );
}
