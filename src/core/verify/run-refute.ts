/**
 * Refutation by running (docs/design.md §3, "Refuted by running"): before
 * the solver is asked anything, the refinement query of a step is evaluated
 * in concrete states, the state bank's reachable ones (state-bank.ts) and
 * ones derived from them by other arguments. The terms evaluated are the
 * very terms the solver would get: the implementation's symbolic run, the
 * spec's step and the instances of the representation invariants, read
 * under a concrete interpretation (smt/eval.ts) instead of being solved, so
 * the C semantics are the symbolic executor's and nothing else's.
 *
 * A state refutes only if every assertion of the query (each instance of
 * every representation invariant) is true in it and some obligation's goal
 * is false (query.ts, `refutes`): it is then a model of the query, which
 * the solver would find satisfiable too. The obligations it falsifies are
 * found by evaluating each goal again in that state (the replay). A state
 * that refutes nothing proves nothing: the solver decides.
 */
import { NPROC } from '../kernel/constants.ts';
import { HANDLERS, requireHandler } from '../kernel/handlers.ts';
import { QuantifierEvalError, type Value, evaluate } from '../smt/eval.ts';
import * as o from '../smt/ops.ts';
import type { Snapshot } from '../smt/snapshot.ts';
import { eachSubterm } from '../smt/subterms.ts';
import { BOOL, type Term, bvConst, norm } from '../smt/term.ts';
import type { VerifierCaches } from './caches.ts';
import type { Failure, Obligation } from './prove.ts';
import { ENUM_LEAVES } from './counterexample-wellformed.ts';
import { type CaseRead, type CaseSymbols, type ReachableCase, afterOwnCall, reachableCases, readsIn, refuteInCases } from './state-bank.ts';
import type { RefinementStep } from './steps.ts';

/** A refutation found by running: a model of the query (kept as a snapshot) and the obligations it falsifies. */
export interface RunRefutation {
  readonly model: Snapshot;
  readonly failures: readonly Failure[];
}

/** At most this many states derived from the bank's are tried per handler (each costs a few milliseconds of evaluation). */
const DERIVED_CASES = 48;

/** At most this many cases of other handlers are tried (their states hold what the handler's own do not: a zombie, a free page). */
const OTHER_CASES = 48;

/** At most this many states with one changed cell are tried. */
const CELL_CASES = 96;

/**
 * Skolem values tried per case beyond all at 0 (state-bank.ts,
 * `refuteInCases`). On both corpora and the mutants, every refutation in a
 * bank state came at the first combination after 0, and in other
 * handlers' states at the eighth at most; a state derived for the
 * condition (an argument or a cell changed, the call made again) is there
 * for the condition, which reads no skolem, and every such refutation came
 * with the skolems at 0. A spec that passes pays for every combination, so
 * these are what the refutations need and little more.
 */
const BASE_COMBINATIONS = 16;
const OTHER_COMBINATIONS = 8;
const CONDITION_COMBINATIONS = 0;

/**
 * The states a step is run in: the bank's cases of `handler` (its oracle
 * succeeds there), then the same states with one argument changed to a
 * value a wrong condition often mishandles: 0, 1, -1, NPROC, the argument's
 * neighbours and the other cases' values of it (so the oracle may fail
 * there, and a spec that lets the call succeed is caught).
 */
function runCases(
  handler: string,
  caches: VerifierCaches,
  read: (c: ReachableCase) => readonly bigint[] = () => [],
): { readonly base: readonly ReachableCase[]; readonly others: readonly ReachableCase[]; readonly derived: readonly ReachableCase[] } {
  const base = reachableCases(handler, caches);
  const widths = requireHandler(handler).args.map((a) => a.width);
  const seen = new Set(base.map((c) => `${c.args.join(',')}@${base.indexOf(c)}`));
  // One list per argument, taken in turn, so each argument gets its share of the cap.
  const byArg: ReachableCase[][] = widths.map((w, i) => {
    const out: ReachableCase[] = [];
    const others = base.map((c) => c.args[i]);
    base.forEach((c, k) => {
      for (const raw of [0n, 1n, -1n, BigInt(NPROC), c.args[i] + 1n, c.args[i] - 1n, ...others, ...c.args, ...read(c)]) {
        const args = c.args.map((a, j) => (j === i ? norm(raw, w) : a));
        const key = `${args.join(',')}@${k}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ state: c.state, args });
      }
    });
    return out;
  });
  return { base, others: others(handler, caches), derived: [...roundRobin(byArg, DERIVED_CASES), ...again(handler, base, caches)] };
}

/** At most this many states after a case's own call are tried. */
const AGAIN_CASES = 32;

/**
 * The handler called a second time: in the state after a case's own call
 * (its oracle run there, state-bank.ts `afterOwnCall`), the same arguments
 * with one changed to its neighbours (the next page, the next slot). What
 * the first call filled is in use now: an entry already present, a page
 * table's slot no longer zero. A condition that forgets to check it lets
 * the second call succeed where the kernel refuses.
 */
function again(handler: string, base: readonly ReachableCase[], caches: VerifierCaches): ReachableCase[] {
  const after = afterOwnCall(handler, caches);
  const widths = requireHandler(handler).args.map((a) => a.width);
  const byArg: ReachableCase[][] = widths.map((w, i) => {
    const out: ReachableCase[] = [];
    base.forEach((c, k) => {
      const state = after[k];
      if (!state) return;
      for (const raw of [c.args[i] + 1n, c.args[i] - 1n, c.args[i] + 2n]) out.push({ state, args: c.args.map((a, j) => (j === i ? norm(raw, w) : a)) });
    });
    return out;
  });
  return roundRobin(byArg, AGAIN_CASES);
}

/**
 * Other handlers' cases as cases of `handler`: their states, with the
 * arguments of a sort both handlers take (the first pid_t for the first
 * pid_t, ...) and `handler`'s own first case's values for the rest. A
 * process another call reaps is a zombie: killing it must fail.
 */
function others(handler: string, caches: VerifierCaches): ReachableCase[] {
  const own = requireHandler(handler).args;
  const fallback = reachableCases(handler, caches)[0]?.args ?? own.map(() => 0n);
  // Each other handler's cases, its first case first.
  const lists: ReachableCase[][] = [];
  for (const h of HANDLERS) {
    if (h.name === handler) continue;
    const bySort = new Map<string, number[]>();
    h.args.forEach((a, i) => bySort.set(a.sort, [...(bySort.get(a.sort) ?? []), i]));
    const taken = new Map<string, number>();
    const from = own.map((a) => {
      const k = taken.get(a.sort) ?? 0;
      taken.set(a.sort, k + 1);
      return bySort.get(a.sort)?.[k];
    });
    if (!from.some((i) => i !== undefined)) continue;
    lists.push(reachableCases(h.name, caches).map((c) => ({ state: c.state, args: own.map((a, i) => norm(from[i] === undefined ? fallback[i] : c.args[from[i]!], a.width)) })));
  }
  return roundRobin(lists, OTHER_CASES);
}

/** The first of each list, then the second of each, ..., at most `cap` in all. */
function roundRobin<T>(lists: readonly (readonly T[])[], cap: number): T[] {
  const out: T[] = [];
  for (let r = 0; out.length < cap && lists.some((l) => r < l.length); r++) {
    for (const l of lists) if (r < l.length && out.length < cap) out.push(l[r]);
  }
  return out;
}

/**
 * The bank's states with one cell the conditions read (`condition`) changed: an enum
 * cell to each other member, a flag to its negation, a number to 0, 1 and
 * its neighbours. A condition that leaves out a check reads the cell the
 * check reads in no other way, so changing it is what tells the two apart;
 * whether the changed state is one the invariants allow is the query's to
 * say (`refutes`).
 */
function cellCases(base: readonly ReachableCase[], condition: Term, symbols: CaseSymbols): ReachableCase[] {
  const lists = base.map((c) =>
    readsIn(condition, symbols, c).flatMap((r) => (r.name.startsWith('c:') ? otherValues(r, [0n, 1n]).map((v) => ({ ...c, cells: new Map([[r.key, v]]) })) : [])),
  );
  return roundRobin(lists, CELL_CASES);
}

/**
 * A cell's other values: an enum cell's other members, a flag's negation,
 * a number's `numbers` and neighbours (never negative, never the cell's own
 * value).
 */
function otherValues(r: CaseRead, numbers: readonly bigint[]): Value[] {
  const members = r.name.startsWith('c:') ? ENUM_LEAVES[r.name.slice(2)] : undefined;
  const values: Value[] = typeof r.value === 'boolean' ? [!r.value] : members ?? [...numbers, r.value + 1n, r.value - 1n];
  return values.filter((v) => v !== r.value && (typeof v === 'boolean' || v >= 0n));
}

/** At most this many bank cases are read for `goalCellCases`, and at most this many states derived from them. */
const GOAL_BASES = 2;
const GOAL_CELL_CASES = 48;

/**
 * The bank's states with one cell a goal reads changed, the goal's skolems
 * at the point it was read: all at 0, at an entry the conditions read (the
 * parent table's slot), or all at one argument's value (the page the call
 * frees). A spec that writes what the kernel leaves (zeroes a freed page's
 * words, sets a flag already set, rebuilds an address from a page number)
 * agrees with it wherever the cell already holds what the spec writes: in
 * a fresh page, a flag set by an earlier call, a region that starts on a
 * page boundary. Changing the cell, a word to 1 or 2, a flag to its
 * negation, an address to its neighbour, shows the difference. Per
 * obligation, in turn, so each gets its share of the cap; cells the
 * conditions read are `cellCases`'. Only a model of the whole query
 * refutes (`refutes`).
 */
function goalCellCases(base: readonly ReachableCase[], goals: readonly Term[], condition: Term, symbols: CaseSymbols): ReachableCase[] {
  const lists: ReachableCase[][] = goals.map(() => []);
  for (const c of base.slice(0, GOAL_BASES)) {
    const conditionReads = readsIn(condition, symbols, c);
    const read = new Set(conditionReads.map((r) => r.key));
    goals.forEach((goal, g) => {
      const skolems = skolemsOf([goal]);
      const at = (values: readonly Value[]) => new Map<string, Value>(skolems.map((s, i) => [s.name!, s.sort === BOOL ? false : norm(values[Math.min(i, values.length - 1)] as bigint, s.sort)]));
      const entries = conditionReads.filter((r) => skolems.length > 1 && r.args.length === skolems.length && r.args.every((v) => typeof v === 'bigint')).map((r) => at(r.args));
      const seen = new Set(read);
      for (const point of [at([0n]), ...entries, ...[...new Set(c.args)].map((v) => at([v]))]) {
        for (const r of readsIn(goal, symbols, { ...c, skolems: point })) {
          if (seen.has(r.key) || !(r.name.startsWith('c:') || r.name.startsWith('&'))) continue;
          seen.add(r.key);
          for (const v of otherValues(r, r.value === 0n ? [1n, 2n] : [0n])) lists[g].push({ ...c, skolems: point, cells: new Map([[r.key, v]]) });
        }
      }
    });
  }
  return roundRobin(lists, GOAL_CELL_CASES);
}

/** What the two conditions read: the spec's condition and the implementation's return value. */
function conditionOf(step: RefinementStep): Term {
  return o.and(step.cond, o.eq(step.ret, bvConst(0, step.ret.sort)));
}

/** The skolems of a refinement query: the compared fields' indices and the skolemised invariants' variables. */
function skolemsOf(goals: readonly Term[]): Term[] {
  const out = new Map<string, Term>();
  eachSubterm(goals, (t) => {
    if (t.op === 'var' && t.name!.startsWith('sk.')) out.set(t.name!, t);
  });
  return [...out.values()].sort((a, b) => (a.name! < b.name! ? -1 : 1));
}

/**
 * Looks for a concrete state in which `obligations` of `step` fail, the
 * representation invariants (`assume`) holding: the first case of
 * `runCases` that is a model of the query, with the obligations it
 * falsifies. Undefined where no case refutes (the solver decides).
 */
export function refuteByRunning(
  handler: string,
  step: RefinementStep,
  obligations: readonly Obligation[],
  assume: (roots: readonly Term[]) => Term[],
  caches: VerifierCaches,
): RunRefutation | undefined {
  const open = obligations.filter((ob) => !(ob.goal.op === 'const' && ob.goal.value === true));
  if (open.length === 0) return undefined;
  const goals = open.map((ob) => ob.goal);
  // One goal, the conjunction (the solver's combined query negates the same term).
  const q = { goals: [o.and(...goals)], assume: (negated: Term) => assume([negated]) };
  const symbols = { pre: step.pre, args: step.args.map((a) => a.term), mem: step.mem };
  const skolems = skolemsOf(goals);
  const condition = conditionOf(step);
  const { base, others: elsewhere, derived } = runCases(handler, caches, (c) => readsIn(condition, symbols, c).flatMap((r) => [...r.args, r.value].filter((v): v is bigint => typeof v === 'bigint')));
  // A state derived for the condition, which reads no skolem: the skolems at 0 only.
  const model =
    refuteInCases(q, skolems, symbols, base, [], BASE_COMBINATIONS) ??
    refuteInCases(q, skolems, symbols, elsewhere, [], OTHER_COMBINATIONS) ??
    refuteInCases(q, skolems, symbols, derived, [], CONDITION_COMBINATIONS) ??
    refuteInCases(q, skolems, symbols, cellCases(base, condition, symbols), [], CONDITION_COMBINATIONS) ??
    refuteInCases(q, skolems, symbols, goalCellCases(base, goals, condition, symbols), [], CONDITION_COMBINATIONS);
  if (!model) return undefined;
  // The replay: each obligation's goal under the model.
  const memo = new Map<number, Value>();
  const failures: Failure[] = [];
  // A goal through a spec's quantifier has no concrete value: never a failure here.
  const falseIn = (t: Term) => {
    try {
      return evaluate(t, model, memo) === false;
    } catch (e) {
      if (e instanceof QuantifierEvalError) return false;
      throw e;
    }
  };
  for (const ob of open) {
    if (!falseIn(ob.goal)) continue;
    const failedParts = (ob.parts ?? []).filter((p) => falseIn(p.goal)).map((p) => p.label);
    failures.push({ obligation: ob, failedParts });
  }
  return failures.length ? { model, failures } : undefined;
}
