/**
 * Reachable states (docs/lemmas.md, "Reusing what is known", item 9): real
 * kernel states, reached from the boot state by the oracles' own steps, in
 * which a handler's oracle succeeds. A fact a step breaks usually breaks in
 * the first state where the step does anything at all, so before the solver
 * searches for a counterexample, the step is evaluated in these states.
 *
 * The states come from `tasks/hv6/state-bank.json` (`npx tsx
 * scripts/gen-state-bank.ts` searches them): for each handler a few paths
 * from the boot state, each a list of oracle calls with concrete arguments,
 * and the arguments of the handler's own call at the end. Replaying a path
 * here is symbolic execution on constants: every read folds to a value.
 *
 * Nothing here is trusted. A case only proposes values for the query's
 * symbols (the pre-state's maps, the arguments, the goal's skolems); a fact
 * fails only if our evaluator then finds the goal false and every assertion
 * of the very query true (`refutes` in query.ts), which makes the query
 * satisfiable, as the solver would find. A stale path (an oracle or the
 * kernel changed and a call no longer succeeds) is dropped, never replayed
 * wrong: its state simply is not offered.
 */
import stored from '../../../tasks/hv6/state-bank.json';
import { type ParseCache, newParseCache, runSpec } from '../dialect/index.ts';
import { oracleSpec } from '../kernel/content.ts';
import { requireHandler } from '../kernel/handlers.ts';
import { bootWitness } from '../kernel/lemmas/index.ts';
import { type CMemory, concreteMemory } from '../kernel/equiv.ts';
import { type AbstractState, fieldParts } from '../kernel/state.ts';
import { type Interpretation, QuantifierEvalError, type Value, evaluate, zeroInterpretation } from '../smt/eval.ts';
import type { MapFn } from '../smt/fn.ts';
import { Snapshot } from '../smt/snapshot.ts';
import { BOOL, type FuncDecl, type Term, boolConst, bvConst, norm, variable } from '../smt/term.ts';
import { type VerifierCaches, mapSlot } from './caches.ts';
import { type Query, refutes } from './query.ts';

/**
 * A state of the bank: the oracle call (handler and arguments, hex) that
 * reaches it from an earlier state of the file (`from`, an index; -1 is the
 * boot state). Paths that share a prefix share its states.
 */
export interface BankState {
  readonly from: number;
  readonly handler: string;
  readonly args: readonly string[];
}

/** A case of a handler: a state of the bank (an index; -1 is the boot state) and the handler's arguments there (hex). */
export interface BankCase {
  readonly state: number;
  readonly args: readonly string[];
}

export interface StateBankFile {
  /** How it was made (the command), for people. */
  readonly made: string;
  readonly states: readonly BankState[];
  readonly handlers: Readonly<Record<string, readonly BankCase[]>>;
}

export const STORED_BANK: StateBankFile = stored as StateBankFile;

/** A concrete pre-state and arguments under which the handler's oracle succeeds. */
export interface ReachableCase {
  readonly state: AbstractState;
  readonly args: readonly bigint[];
  /**
   * Cells of the query's pre-state read otherwise than in `state`, by read
   * (`c:proc_table.state(1)`): a state derived from a reachable one
   * (verify/run-refute.ts). It is offered like any other; only a model of
   * the whole query refutes.
   */
  readonly cells?: ReadonlyMap<string, Value>;
  /**
   * The goal's skolems to try first in this case, by name (absent: all at
   * 0): the point a state derived for the goal was derived at
   * (verify/run-refute.ts).
   */
  readonly skolems?: ReadonlyMap<string, Value>;
}

/** One read of a case's pre-state: the symbol, the indices, the value, and its key (as `ReachableCase.cells` names it). */
export interface CaseRead {
  readonly key: string;
  readonly name: string;
  readonly args: readonly Value[];
  readonly value: Value;
}

/** The arguments of a call as terms of the handler's widths. */
function argTerms(handler: string, args: readonly (bigint | string)[]): Term[] | undefined {
  const h = requireHandler(handler);
  if (args.length !== h.args.length) return undefined;
  return h.args.map((a, i) => bvConst(BigInt(args[i]), a.width));
}

/** The oracles' parses, kept for every replay (50 texts). */
const ORACLE_PARSES: ParseCache = newParseCache(64);

/**
 * The state after the oracle of `handler` runs on `state` with `args`, or
 * undefined where the call does not succeed (its condition is not the
 * constant true) or the oracle does not run.
 */
export function oracleCall(handler: string, state: AbstractState, args: readonly (bigint | string)[]): AbstractState | undefined {
  const text = oracleSpec(handler);
  const terms = argTerms(handler, args);
  if (text === undefined || !terms) return undefined;
  // The oracles are the committed specs, whose every map is read by their own proofs: nothing to force.
  const run = runSpec(text, handler, state, terms, { force: 'none', parseCache: ORACLE_PARSES });
  if (!run.ok || run.cond.op !== 'const' || run.cond.value !== true) return undefined;
  return run.post;
}

/** Replayed states of a bank file, by index (null: the call no longer succeeds). */
const STATES = mapSlot<string, AbstractState | null>('reachableStates');
/** The cases of each handler. */
const CASES = mapSlot<string, readonly ReachableCase[]>('reachableStates');

/** Files told apart in the caches (a test's file is not the committed one). */
const fileIds = new WeakMap<StateBankFile, number>();
let files = 0;
const fileId = (file: StateBankFile) => {
  let id = fileIds.get(file);
  if (id === undefined) fileIds.set(file, (id = files++));
  return id;
};

function replay(file: StateBankFile, index: number, caches: VerifierCaches): AbstractState | undefined {
  if (index < 0) return bootWitness();
  // Each state comes from an earlier one: a file that says otherwise is not replayed.
  const s = file.states[index];
  if (!s || s.from >= index) return undefined;
  const states = caches.slot(STATES);
  const key = `${fileId(file)}:${index}`;
  const hit = states.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const before = replay(file, s.from, caches);
  const state = before && oracleCall(s.handler, before, s.args);
  states.set(key, state ?? null);
  return state;
}

/** The states after each case's own call, by handler (null: the oracle does not succeed there). */
const AFTER = mapSlot<string, readonly (AbstractState | null)[]>('reachableStates');

/**
 * The state after each of `handler`'s cases, its oracle run there (the
 * case's index in `reachableCases`; undefined where the call does not
 * succeed). A state one more step from the boot state: the entry the call
 * filled, the page it took, are in use there, which is what a second call
 * with nearly the same arguments must be refused for.
 */
export function afterOwnCall(handler: string, caches: VerifierCaches, file: StateBankFile = STORED_BANK): readonly (AbstractState | undefined)[] {
  const after = caches.slot(AFTER);
  const key = `${fileId(file)}:${handler}`;
  let hit = after.get(key);
  if (!hit) after.set(key, (hit = reachableCases(handler, caches, file).map((c) => oracleCall(handler, c.state, c.args) ?? null)));
  return hit.map((s) => s ?? undefined);
}

/** The bank's cases for `handler` (cases whose state no longer replays are left out). */
export function reachableCases(handler: string, caches: VerifierCaches, file: StateBankFile = STORED_BANK): readonly ReachableCase[] {
  const cases = caches.slot(CASES);
  const key = `${fileId(file)}:${handler}`;
  const hit = cases.get(key);
  if (hit) return hit;
  const out: ReachableCase[] = [];
  for (const c of file.handlers[handler] ?? []) {
    const state = replay(file, c.state, caches);
    if (state && argTerms(handler, c.args)) out.push({ state, args: c.args.map((a) => BigInt(a)) });
  }
  cases.set(key, out);
  return out;
}

const constOf = (v: Value, sort: number): Term => (sort === BOOL ? boolConst(v as boolean) : bvConst(v as bigint, sort));

/**
 * The query's symbols in one case: the symbolic pre-state's maps read in the
 * concrete state, the arguments at the case's values, the skolems at what
 * `skolems` says, anything else 0 (false). Reads are memoised (they do not
 * depend on the skolems), and every value read is noted in `seen`.
 */
class CaseInterpretation implements Interpretation {
  readonly skolems = new Map<string, Value>();
  readonly seen = new Set<bigint>();
  /** The indices of every read, by the sorts of its indices ("64,64"): points a candidate tuple of skolems can take at once. */
  readonly points = new Map<string, Value[][]>();
  /** The reads this case has noted in `seen` and `points`. */
  private readonly noted = new Set<string>();
  /** Reads of the case's state, shared by every case of that state (a read does not depend on the arguments or the skolems). */
  private readonly memo: Map<string, Value>;

  /** Every read noted, in order (`readsIn`). */
  readonly reads: CaseRead[] = [];

  constructor(
    private readonly maps: ReadonlyMap<string, MapFn>,
    private readonly consts: ReadonlyMap<string, Value>,
    private readonly cells?: ReadonlyMap<string, Value>,
  ) {
    let memo = READS.get(maps);
    if (!memo) READS.set(maps, (memo = new Map()));
    this.memo = memo;
  }

  constant(name: string, sort: number): Value {
    const v = this.skolems.get(name) ?? this.consts.get(name) ?? this.read(name, []);
    return v ?? (sort === BOOL ? false : 0n);
  }

  apply(decl: FuncDecl, args: Value[]): Value {
    return this.read(decl.name, args, decl) ?? (decl.range === BOOL ? false : 0n);
  }

  private read(name: string, args: Value[], decl?: FuncDecl): Value | undefined {
    const map = this.maps.get(name);
    if (!map) return undefined;
    const key = `${name}(${args.join(',')})`;
    let v = this.cells?.get(key) ?? this.memo.get(key);
    if (v === undefined) {
      v = evaluate(map.apply(args.map((a, i) => constOf(a, decl ? decl.domain[i] : map.domain[i]))), zeroInterpretation);
      this.memo.set(key, v);
    }
    if (!this.noted.has(key)) {
      this.noted.add(key);
      this.reads.push({ key, name, args, value: v });
      for (const a of args) if (typeof a === 'bigint') this.seen.add(a);
      const sorts = (decl ? decl.domain : map.domain).join(',');
      let list = this.points.get(sorts);
      if (!list) this.points.set(sorts, (list = []));
      list.push(args);
      if (typeof v === 'bigint') this.seen.add(v);
    }
    return v;
  }
}

/** The values read in a case's state, by its `symbolMaps` (which live as long as the state). */
const READS = new WeakMap<ReadonlyMap<string, MapFn>, Map<string, Value>>();

/** `symbolMaps` by pre-state and case state (both live as long as the caches that hold them). */
const SYMBOL_MAPS = new WeakMap<AbstractState, WeakMap<AbstractState, ReadonlyMap<string, MapFn>>>();

/**
 * The pre-state's symbol names (what a map's application is called) with
 * the case state's map of the same part. Asked for every fact of every
 * answer of a handler, so made once per pre-state and case.
 */
function symbolMaps(pre: AbstractState, state: AbstractState, mem?: CMemory): ReadonlyMap<string, MapFn> {
  let byState = SYMBOL_MAPS.get(pre);
  if (!byState) SYMBOL_MAPS.set(pre, (byState = new WeakMap()));
  const hit = byState.get(state);
  if (hit) return hit;
  const out = new Map<string, MapFn>();
  byState.set(state, out);
  for (const [path, sym] of pre) {
    const concrete = state.get(path);
    if (!concrete) continue;
    const parts = fieldParts(concrete);
    fieldParts(sym).forEach((p, i) => {
      const name = symbolName(p.map);
      if (name !== undefined && parts[i]) out.set(name, parts[i].map);
    });
  }
  // A pre-state that is a view of C memory (refinement's): the C maps the view does not show as they are.
  if (mem) {
    for (const [key, concrete] of concreteMemory(mem, state)) {
      const name = symbolName(mem.get(key)!);
      if (name !== undefined) out.set(name, concrete);
    }
  }
  return out;
}

/** The name of the symbol a map applies (a function's or a constant's), or undefined where it is not one symbol. */
function symbolName(map: MapFn): string | undefined {
  const t = map.apply(map.domain.map((s, j) => variable(`bank.probe.${j}`, s)));
  return t.op === 'app' ? t.decl!.name : t.op === 'var' ? t.name : undefined;
}

/** Candidate values of a skolem of `sort`, likeliest first: the arguments, values the goal read, their neighbours, small numbers. */
function candidates(sort: number, args: readonly bigint[], seen: Iterable<bigint>, cap: number): Value[] {
  if (sort === BOOL) return [false, true];
  const out = new Set<bigint>();
  const add = (v: bigint) => out.size < cap && out.add(norm(v, sort));
  for (const a of args) add(a);
  const read = [...seen];
  for (const v of read) add(v);
  for (const v of read) add(v + 1n), add(v - 1n);
  for (const v of [0n, 1n, 2n, 3n]) add(v);
  return [...out];
}

/** What the search may spend on one fact: skolem values per variable and combinations per case. */
const CASE_VALUES = 10;
const CASE_COMBINATIONS = 120;
const CASE_POINTS = 40;

/** The query's pre-state and arguments (the symbols a case gives values to). */
export interface CaseSymbols {
  readonly pre: AbstractState;
  readonly args: readonly Term[];
  /** The C memory `pre` is a view of (refinement's queries; kernel/equiv.ts): its maps are read in the case through the equivalence. */
  readonly mem?: CMemory;
}

/**
 * Looks for a model of `q` (one goal, over `skolems`) in the reachable
 * cases: a case and skolem values under which the goal is false and every
 * assertion of `q` true. The skolems' candidates come from what the goal
 * and `roots` (the step's footprint: the points it updates, the slots a
 * count update moves) read in the case. Returns the model as a snapshot (to
 * keep, like a solver's), or undefined.
 */
export function refuteInCases(
  q: Pick<Query, 'goals' | 'assume'>,
  skolems: readonly Term[],
  symbols: CaseSymbols,
  cases: readonly ReachableCase[],
  roots: readonly Term[] = [],
  limit = CASE_COMBINATIONS,
): Snapshot | undefined {
  const [goal] = q.goals;
  const dependent = dependents(goal, new Set(skolems.map((s) => s.name!)));
  for (const c of cases) {
    if (c.args.length !== symbols.args.length) continue;
    const consts = new Map<string, Value>(symbols.args.map((a, i) => [a.name!, norm(c.args[i], a.sort)]));
    const interp = new CaseInterpretation(symbolMaps(symbols.pre, c.state, symbols.mem), consts, c.cells);
    // Skolems at 0 first; then the goal and `roots` (the step's footprint)
    // read the indices and values the step touches (the points it updates,
    // the slots a count update moves): they seed the candidates.
    for (const s of skolems) interp.skolems.set(s.name!, c.skolems?.get(s.name!) ?? (s.sort === BOOL ? false : 0n));
    // What does not read a skolem has one value in the case: evaluated once, whatever the skolems.
    const stable = new StableMemo(dependent);
    if (tryEvaluate(goal, interp, stable) === false) {
      const found = confirm(q, interp);
      if (found) return found;
    }
    if (limit <= 0) continue;
    const memo = new Map<number, Value>();
    for (const t of roots) tryEvaluate(t, interp, memo);
    // First the points the case read with indices of the skolems' sorts (an
    // entry the step writes, a count's slot), then values one by one.
    const pools = skolems.map((s) => candidates(s.sort, c.args, interp.seen, CASE_VALUES));
    const points = skolems.length > 1 ? (interp.points.get(skolems.map((s) => s.sort).join(',')) ?? []) : [];
    let tried = 0;
    for (const combo of chain(points.slice(0, CASE_POINTS), combinations(pools))) {
      if (++tried > limit) break;
      skolems.forEach((s, i) => interp.skolems.set(s.name!, combo[i]));
      if (tryEvaluate(goal, interp, stable) !== false) continue;
      const found = confirm(q, interp);
      if (found) return found;
    }
  }
  return undefined;
}

/** The pre-state cells `t` reads in case `c` (skolems at the case's, or 0), in the order read. */
export function readsIn(t: Term, symbols: CaseSymbols, c: ReachableCase): readonly CaseRead[] {
  const consts = new Map<string, Value>(symbols.args.map((a, i) => [a.name!, norm(c.args[i], a.sort)]));
  const interp = new CaseInterpretation(symbolMaps(symbols.pre, c.state, symbols.mem), consts, c.cells);
  for (const [name, v] of c.skolems ?? []) interp.skolems.set(name, v);
  tryEvaluate(t, interp);
  return interp.reads;
}

/** The ids of the terms under `root` that read one of the constants `names` (a skolem). */
function dependents(root: Term, names: ReadonlySet<string>): Set<number> {
  const out = new Set<number>();
  const done = new Set<number>();
  const entered = new Set<number>();
  // Post-order without recursion: a term is settled once its arguments are;
  // each is expanded once, however many terms share it.
  const stack: [Term, boolean][] = [[root, false]];
  while (stack.length) {
    const [t, expanded] = stack.pop()!;
    if (done.has(t.id)) continue;
    if (!expanded) {
      if (entered.has(t.id)) continue;
      entered.add(t.id);
      stack.push([t, true]);
      for (const a of t.args ?? []) if (!entered.has(a.id)) stack.push([a, false]);
      continue;
    }
    done.add(t.id);
    if ((t.op === 'var' && names.has(t.name!)) || (t.args ?? []).some((a) => out.has(a.id))) out.add(t.id);
  }
  return out;
}

/** An evaluation memo that keeps only the values of terms outside `dependent` (so it outlives a change of the skolems). */
class StableMemo extends Map<number, Value> {
  constructor(private readonly dependent: ReadonlySet<number>) {
    super();
  }

  override set(id: number, v: Value): this {
    if (!this.dependent.has(id)) super.set(id, v);
    return this;
  }
}

/** `t`'s value, or undefined where a quantifier (a spec's own) stops our evaluator. */
function tryEvaluate(t: Term, interp: Interpretation, memo?: Map<number, Value>): Value | undefined {
  try {
    return evaluate(t, interp, memo);
  } catch (e) {
    if (e instanceof QuantifierEvalError) return undefined;
    throw e;
  }
}

function confirm(q: Pick<Query, 'goals' | 'assume'>, interp: CaseInterpretation): Snapshot | undefined {
  const snapshot = new Snapshot();
  return refutes(q, snapshot.record(interp)) ? snapshot : undefined;
}

/** `first`'s items, then `rest`'s, lazily (`rest` may be too many to list). */
function* chain<T>(first: Iterable<T>, rest: Iterable<T>): Generator<T> {
  yield* first;
  yield* rest;
}

/** Every combination of one value from each pool, first values first (breadth by rank). */
function* combinations(pools: readonly Value[][]): Generator<Value[]> {
  if (pools.length === 0) return;
  const max = Math.max(...pools.map((p) => p.length));
  // By the largest rank in the combination: all of rank < k before any of rank k.
  for (let k = 0; k < max; k++) {
    const rec = function* (i: number, acc: Value[], hasK: boolean): Generator<Value[]> {
      if (i === pools.length) {
        if (hasK) yield acc;
        return;
      }
      for (let r = 0; r <= Math.min(k, pools[i].length - 1); r++) yield* rec(i + 1, [...acc, pools[i][r]], hasK || r === k);
    };
    yield* rec(0, [], false);
  }
}
