/**
 * Where does one spec step agree with another? Two steps of a handler, run
 * from the same symbolic pre-state with the same arguments, agree on a map
 * of the post-state (a field, or a Refcnt's count or permutation) when it is
 * the same function in every pre-state that satisfies the spec invariants.
 * A declarative check assumes the invariants on the pre-state and reads only
 * the post-state (which already folds in the condition), so a fact that
 * reads only maps where two steps agree has the same truth for both
 * (docs/lemmas.md, "Reusing what is known").
 *
 * Maps are compared at fresh probe indices (a map agrees everywhere iff it
 * agrees at an arbitrary index). Hash-consing makes most maps of a rewritten
 * answer the very same term. The others are obligations of a proof
 * (prove.ts: all at once first, then what a model does not refute), first
 * with no assumption (a model there counts as a difference: at worst a map
 * that agrees only where the invariants hold loses the reuse), then, for
 * what that leaves undecided, under the spec invariants instantiated at
 * its terms.
 */
import { specInvariants } from '../kernel/spec-invariants.ts';
import { type AbstractState, fieldParts } from '../kernel/state.ts';
import type { MapFn } from '../smt/fn.ts';
import * as o from '../smt/ops.ts';
import type { SmtEngine } from '../smt/solver.ts';
import { type Term, variable } from '../smt/term.ts';
import { instantiate } from '../smt/instantiate.ts';
import { substitute } from '../smt/subst.ts';
import { DECLARATIVE_SOLVE_EQS } from './query.ts';
import { type Obligation, disposeOutcome, prove } from './prove.ts';
import type { SymbolicStep } from './steps.ts';

/** Every map of a state, named by its field's path and part (`procs.nr_fds.perm`). */
function stateMaps(post: AbstractState): { path: string; map: MapFn }[] {
  return [...post].flatMap(([path, v]) => fieldParts(v).map((p) => ({ path: `${path}${p.suffix}`, map: p.map })));
}

/**
 * The step as terms: its condition, then each field map read at probe
 * indices named `<prefix><field>.<i>`. The probes must be fresh for the step
 * (a spec can name its own constants with `z3.BitVec`, so a name it could
 * guess is not fresh for an untrusted spec).
 */
export function stepTerms(step: Pick<SymbolicStep, 'cond' | 'post'>, prefix = 'step.probe.'): { name: string; term: Term }[] {
  return [
    { name: 'cond', term: step.cond },
    ...stateMaps(step.post).map(({ path, map }) => ({
      name: path,
      term: map.apply(map.domain.map((sort, i) => variable(`${prefix}${path}.${i}`, sort))),
    })),
  ];
}

// Probe names no spec can know in advance: a spec that named a constant like
// a probe could agree with the oracle at the probe only and differ elsewhere.
const NONCE = `${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
const PROBE = `same.${NONCE}.`;

/** How two steps compare, map by map. */
export interface Comparison {
  /** Maps (named as `stateMaps` names them) that are the same term in both steps. */
  readonly identical: readonly string[];
  /** Maps that are different terms but proved the same function. */
  readonly equivalent: readonly string[];
  /** Maps not shown the same (a model of a difference, in a pre-state of the invariants or not; or no answer in the budget). */
  readonly different: readonly string[];
  /** Solver time and queries. */
  readonly ms: number;
  readonly queries: number;
}

/**
 * Compares the post-states of two steps of one handler from the same
 * pre-state (`a.pre`, which must be `b.pre`), map by map. Runs its queries,
 * if any, as an engine job of its own, within `timeoutMs` in all.
 */
export async function compareSteps(a: SymbolicStep, b: SymbolicStep, engine: SmtEngine, opts: { readonly timeoutMs?: number } = {}): Promise<Comparison> {
  if (a.pre !== b.pre || a.handler !== b.handler) throw new Error('internal error: steps compared from different pre-states');
  const ta = mapTerms(a.post);
  const tb = mapTerms(b.post);
  const identical: string[] = [];
  let open: { name: string; a: Term; b: Term }[] = [];
  ta.forEach((x, i) => (x.term === tb[i].term ? identical.push(x.name) : open.push({ name: x.name, a: x.term, b: tb[i].term })));
  if (open.length === 0) return { identical, equivalent: [], different: [], ms: 0, queries: 0 };
  const invariants = specInvariants(a.pre);
  const assume = (roots: readonly Term[]) => instantiate(invariants, roots);
  const timeoutMs = opts.timeoutMs ?? 0;
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : undefined;
  const equivalent: string[] = [];
  let ms = 0;
  let queries = 0;
  const proofOf = async (obligations: Obligation[], under = assume) => {
    const outcome = await engine.exclusive(() => prove(obligations, engine, { assume: under, timeoutMs: timeoutMs || undefined, deadline, solveEqs: DECLARATIVE_SOLVE_EQS }));
    disposeOutcome(outcome);
    ms += outcome.solverMs;
    queries += outcome.queries;
    return outcome.results;
  };
  const provedOf = async (obligations: Obligation[]) => new Set((await proofOf(obligations)).filter((r) => r.status === 'proved').map((r) => r.name));
  // A step written another way usually differs in how its condition is
  // written, and so in every map it writes (each is If(cond, new, old)). If
  // putting the other step's condition in place of this one's makes a map
  // the very same term, the map agrees wherever the two conditions do: one
  // small query on the conditions settles all of them.
  if (a.cond !== b.cond) {
    const swap = new Map([[a.cond, b.cond]]);
    const bySwap = open.filter((d) => substitute(d.a, swap) === d.b);
    if (bySwap.length > 0 && (await provedOf([{ name: 'cond', goal: o.eq(a.cond, b.cond) }])).has('cond')) {
      equivalent.push(...bySwap.map((d) => d.name));
      open = open.filter((d) => !bySwap.includes(d));
    }
  }
  // Asked without the invariants first: no model proves a map the same in
  // every pre-state; a model names the maps that differ in its pre-state
  // (which may break an invariant: a map counted different that agrees
  // wherever the invariants hold costs only the reuse). On the corpus no map
  // needed the invariants to be shown the same, and the near misses'
  // differences took a third of the time to show. What that leaves
  // undecided is proved under the invariants.
  const sameMaps = (ds: typeof open) => ds.map((d) => ({ name: d.name, goal: o.eq(d.a, d.b) }));
  const lean = new Map((open.length ? await proofOf(sameMaps(open), () => []) : []).map((r) => [r.name, r.status]));
  equivalent.push(...open.filter((d) => lean.get(d.name) === 'proved').map((d) => d.name));
  const different = open.filter((d) => lean.get(d.name) === 'failed').map((d) => d.name);
  open = open.filter((d) => lean.get(d.name) !== 'proved' && lean.get(d.name) !== 'failed');
  const proved = open.length ? await provedOf(sameMaps(open)) : new Set<string>();
  return {
    identical,
    equivalent: [...equivalent, ...open.filter((d) => proved.has(d.name)).map((d) => d.name)],
    different: [...different, ...open.filter((d) => !proved.has(d.name)).map((d) => d.name)],
    ms,
    queries,
  };
}

/** The post-state's maps read at the probes, named by `stateMaps`. */
function mapTerms(post: AbstractState): { name: string; term: Term }[] {
  return stepTerms({ cond: o.TRUE, post }, PROBE).slice(1);
}
