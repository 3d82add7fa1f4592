/**
 * Counterexamples from well-formed states. The first refuting model Z3 finds
 * is any state the representation invariants allow, and those say nothing
 * about cells the invariants do not constrain: a process state of 6 (the
 * enum has 0-5), a port count of 2^63, an argument of 0xc000000000000001,
 * a page table at address 0 or at an odd address (hv6's verifier, and so
 * ours, assumes nothing of a global's address: refinement.ts). Such a state
 * is a real counterexample, but a reader cannot tell it from a solver
 * artefact. So after a refutation we ask once more, with preferences as
 * extra assertions:
 *
 *   1. every enum cell the query reads holds a member of its enum, every
 *      count and size stays within the kernel's limits (constants.ts), every
 *      global whose address the query reads is where C can place it
 *      (c/memory.ts `addressFacts`: not null, aligned, inside the address
 *      space), and the arguments are small;
 *   2. if that has no model, the same with arguments that may also be small
 *      negative numbers (an fd of -1), then without any argument preference
 *      (the failure needs a large argument);
 *   3. if none has one (or none is found in time), the same three without
 *      the address facts, and the counterexample names the globals it puts
 *      where C cannot (`outsideC`); the verdict stays a refutation, as it is
 *      in hv6 (docs/c-subset.md, "Where the globals are");
 *   4. if none has one, the raw model, and the counterexample says so
 *      (`wellFormed: false`).
 *
 * Each extra query is a checked query (query.ts) with the same assumptions
 * as the one that refuted, on a short budget, so it costs about as much as
 * that one. The search is a policy over the query's result: a model is used
 * only while it is lent, to show the counterexample.
 */
import { type Value, evaluate } from '../smt/eval.ts';
import * as o from '../smt/ops.ts';
import type { SmtEngine, SmtModel } from '../smt/solver.ts';
import { eachSubterm } from '../smt/subterms.ts';
import { type Term, bvConst } from '../smt/term.ts';
import { ENUMS, NDMAPAGE, NFILE, NINTREMAP, NOFILE, NPAGE, NPCIDEV, NPROC, PAGE_SIZE } from '../kernel/constants.ts';
import type { HandlerArg } from '../kernel/handlers.ts';
import type { Failure, Obligation, Refutation } from './prove.ts';
import { applications } from '../smt/instantiate.ts';
import { solveQuery, negation } from './query.ts';

/** The members of an enum, without its FORCE_WIDTH marker. */
function members(e: Record<string, bigint>): bigint[] {
  return Object.entries(e)
    .filter(([name]) => !name.endsWith('FORCE_WIDTH'))
    .map(([, v]) => v);
}

/** C memory leaves (pre-state symbols are `c:<leaf>`) that hold an enum member. */
export const ENUM_LEAVES: Record<string, bigint[]> = {
  'proc_table.state': members(ENUMS.proc_state),
  'page_desc_table.type': members(ENUMS.page_type),
  'dmapage_desc_table.type': members(ENUMS.page_type),
  'file_table.type': members(ENUMS.file_type),
  'intremap_table.state': members(ENUMS.intremap_state),
};

/**
 * Upper bounds (inclusive) of counts and sizes: a process cannot own more
 * than the kernel has (NOFILE fd slots, NPROC processes, NPAGE pages, 2^16
 * I/O ports, 256 vectors, ...), and a file cannot be open more often than
 * there are fd slots in all processes.
 */
const LIMITS: Record<string, bigint> = {
  'proc_table.nr_children': BigInt(NPROC),
  'proc_table.nr_fds': BigInt(NOFILE),
  'proc_table.nr_pages': BigInt(NPAGE),
  'proc_table.nr_dmapages': BigInt(NDMAPAGE),
  'proc_table.nr_devs': BigInt(NPCIDEV),
  'proc_table.nr_ports': 1n << 16n,
  'proc_table.nr_vectors': 256n,
  'proc_table.nr_intremaps': BigInt(NINTREMAP),
  'proc_table.ipc_size': BigInt(PAGE_SIZE),
  'file_table.refcnt': BigInt(NPROC * NOFILE),
  'file_table.offset': 1n << 32n,
};

/** Arguments are "small" below this bound. */
const SMALL = 1n << 12n;

/** The well-formedness facts about the pre-state cells that `roots` read. */
function stateFacts(roots: readonly Term[]): Term[] {
  const out: Term[] = [];
  for (const [fn, apps] of applications(roots)) {
    if (!fn.startsWith('c:')) continue;
    const leaf = fn.slice(2);
    const enumValues = ENUM_LEAVES[leaf];
    const limit = LIMITS[leaf];
    for (const app of apps) {
      if (enumValues) out.push(o.or(...enumValues.map((v) => o.eq(app, bvConst(v, app.sort)))));
      else if (limit !== undefined) out.push(o.ule(app, bvConst(limit, app.sort)));
    }
  }
  return out;
}

/**
 * The arguments are small numbers: below 4096, or with `negative`, also
 * between -4095 and -1 (an fd of -1 is how some bugs show).
 */
function smallArgs(args: readonly { readonly arg: HandlerArg; readonly term: Term }[], negative = false): Term[] {
  return args.filter(({ term }) => term.sort > 12).map(({ term }) => {
    const w = term.sort;
    const small = o.ult(term, bvConst(SMALL, w));
    return negative ? o.or(small, o.uge(term, bvConst((1n << BigInt(w)) - SMALL, w))) : small;
  });
}

/** The C address fact of each global whose address `roots` read, by the global's name (`&pages` -> `pages`). */
function addressesIn(roots: readonly Term[], facts: ReadonlyMap<string, Term>): [string, Term][] {
  if (facts.size === 0) return [];
  const out: [string, Term][] = [];
  eachSubterm(roots, (t) => {
    const f = t.op === 'var' ? facts.get(t.name!) : undefined;
    if (f) out.push([t.name!.replace(/^&/, ''), f]);
  });
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A model to show and what it falsifies. */
export interface WellFormedShown {
  readonly model: SmtModel;
  readonly failures: readonly Failure[];
  readonly replayed: boolean;
  /** The model satisfies the well-formedness preferences (false: the raw model, none was found). */
  readonly wellFormed: boolean;
  /** The globals the model puts where C cannot (null, misaligned, wrapping past 2^64); empty when there are none. */
  readonly outsideC: readonly string[];
}

export interface WellFormedOptions {
  readonly engine: SmtEngine;
  readonly assume: (roots: readonly Term[]) => Term[];
  readonly args: readonly { readonly arg: HandlerArg; readonly term: Term }[];
  /** C's facts about each global's address, by the name of its constant (`&pages`): preferred, never assumed. */
  readonly addresses: ReadonlyMap<string, Term>;
  /** Budget of each extra query, ms. */
  readonly timeoutMs: number;
}

/**
 * Shows a refutation found by running (run-refute.ts) as it is, without a
 * query: its state is one the run reached, so it is shown, and called well
 * formed only where it keeps every preference (`wellFormed` is left out
 * otherwise: no search said that no well-formed state fails).
 */
export function showAsFound<T>(
  raw: Pick<Refutation, 'model' | 'failures' | 'replayed'>,
  opts: Pick<WellFormedOptions, 'assume' | 'args' | 'addresses'>,
  show: (s: Omit<WellFormedShown, 'wellFormed'> & { readonly wellFormed?: boolean }) => T,
): T {
  const goals = raw.failures.map((f) => f.obligation.goal);
  const roots = [negation(goals), ...opts.assume([negation(goals)])];
  const memo = new Map<number, Value>();
  const holds = (t: Term) => evaluate(t, raw.model, memo) === true;
  const addresses = addressesIn(roots, opts.addresses);
  const outsideC = addresses.filter(([, f]) => !holds(f)).map(([name]) => name);
  const wellFormed = stateFacts(roots).every(holds) && smallArgs(opts.args, true).every(holds) && outsideC.length === 0;
  return show({ model: raw.model, failures: raw.failures, replayed: raw.replayed, outsideC, ...(wellFormed ? { wellFormed } : {}) });
}

/** Budget of a preference query (ms): it is a convenience, never worth more than this. */
const PREFERENCE_MS = 3000;

/**
 * Shows a refutation (`show` builds what the caller needs from the model)
 * with a well-formed state, when one exists among the states that falsify
 * the same obligations; otherwise with `raw`'s own model, marked. `show`
 * runs while the model it gets is alive, and a model found here is disposed
 * when it returns.
 */
export async function showWellFormed<T>(raw: Pick<Refutation, 'model' | 'failures' | 'replayed'>, opts: WellFormedOptions, show: (s: WellFormedShown) => T): Promise<T> {
  const failed: Obligation[] = raw.failures.map((f) => f.obligation);
  const rawMemo = new Map<number, Value>();
  const holdsRaw = (ts: readonly Term[]) => ts.every((t) => evaluate(t, raw.model, rawMemo) === true);
  const outside = (addresses: readonly [string, Term][], holds: (t: Term) => boolean) => addresses.filter(([, f]) => !holds(f)).map(([name]) => name);
  const asRaw = (wellFormed: boolean, addresses: readonly [string, Term][]) =>
    show({ model: raw.model, failures: raw.failures, replayed: raw.replayed, wellFormed, outsideC: outside(addresses, (f) => holdsRaw([f])) });
  if (failed.length === 0) return asRaw(false, []);
  // The goal: at least one of the obligations the raw model falsifies fails.
  const goals = failed.map((ob) => ob.goal);
  const assumptions = opts.assume([negation(goals)]);
  const facts = stateFacts([negation(goals), ...assumptions]);
  const addresses = addressesIn([negation(goals), ...assumptions], opts.addresses);
  const placed = addresses.map(([, f]) => f);
  const small = smallArgs(opts.args);
  const rawWellFormed = holdsRaw(facts);
  const rawPlaced = holdsRaw(placed);
  if (rawWellFormed && rawPlaced && holdsRaw(small)) return asRaw(true, addresses);

  const budget = Math.min(opts.timeoutMs, PREFERENCE_MS);
  const within = (extra: readonly Term[]) => [[...facts, ...extra, ...small], [...facts, ...extra, ...smallArgs(opts.args, true)], [...facts, ...extra]];
  const tiers = [
    ...within(placed).slice(0, rawWellFormed && rawPlaced ? 2 : 3),
    // No such state puts every global where C can: the same without that preference.
    ...(placed.length && !rawPlaced ? within([]).slice(0, rawWellFormed ? 2 : 3) : []),
  ];
  for (const prefs of tiers) {
    if (prefs.length === 0) continue;
    // The same assumptions as the refuting query, and the preferences, which a replay must also find true.
    const r = await solveQuery(opts.engine, { goals, assume: () => [...assumptions, ...prefs], timeoutMs: budget }, (lease) => {
      const failures: Failure[] = [];
      for (const f of raw.failures) {
        if (lease.value(f.obligation.goal) === true) continue;
        const failedParts = (f.obligation.parts ?? []).filter((p) => lease.value(p.goal) !== true).map((p) => p.label);
        failures.push({ obligation: f.obligation, failedParts });
      }
      return show({ model: lease.model, failures, replayed: true, wellFormed: true, outsideC: outside(addresses, (t) => lease.value(t) === true) });
    });
    // A model our evaluator does not replay (or none): the next tier.
    if (r.kind === 'refuted') return r.value;
  }
  return asRaw(rawWellFormed, addresses);
}
