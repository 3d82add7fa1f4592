/**
 * Is one spec step the same as another? Two steps of a handler, run from the
 * same symbolic pre-state with the same arguments, are the same step when
 * their conditions agree and every field of their post-states agrees at every
 * index, in every pre-state that satisfies the spec invariants. Then every
 * declarative check (which assumes the invariants on the pre-state) has the
 * same truth for both, so a proof for one is a proof for the other
 * (docs/lemmas.md, "Reusing the oracle's proof").
 *
 * Fields are compared at fresh probe indices (a field agrees everywhere iff
 * it agrees at an arbitrary index). Hash-consing makes most fields of an
 * equivalent answer the very same term; the rest go into one query.
 */
import { specInvariants } from '../kernel/spec-invariants.ts';
import { type AbstractState, fieldParts } from '../kernel/state.ts';
import type { MapFn } from '../smt/fn.ts';
import * as o from '../smt/ops.ts';
import type { SmtEngine } from '../smt/solver.ts';
import { type Term, variable } from '../smt/term.ts';
import { instantiate } from '../smt/instantiate.ts';
import { checkQuery } from './query.ts';
import type { SymbolicStep } from './steps.ts';

/** Every map of a state, named by its field's path and part (`procs.nr_fds.perm`). */
export function stateMaps(post: AbstractState): { path: string; map: MapFn }[] {
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

export type SameStep =
  /** Term for term the same: no query. */
  | { readonly verdict: 'identical' }
  /** Proved the same by one query. */
  | { readonly verdict: 'equivalent'; readonly ms: number; readonly fields: readonly string[] }
  /** Not shown the same (a model of a difference, or the solver gave up): nothing carries over. */
  | { readonly verdict: 'different'; readonly ms: number; readonly fields: readonly string[]; readonly reason: string };

/**
 * Compares two steps of one handler from the same pre-state (`a.pre`, which
 * must be `b.pre`). Runs its query, if any, as an engine job of its own.
 */
export async function sameStep(a: SymbolicStep, b: SymbolicStep, engine: SmtEngine, opts: { readonly timeoutMs?: number } = {}): Promise<SameStep> {
  if (a.pre !== b.pre || a.handler !== b.handler) throw new Error('internal error: steps compared from different pre-states');
  const ta = stepTerms(a, PROBE);
  const tb = stepTerms(b, PROBE);
  const differing = ta.flatMap((x, i) => (x.term === tb[i].term ? [] : [{ name: x.name, a: x.term, b: tb[i].term }]));
  if (differing.length === 0) return { verdict: 'identical' };
  const fields = differing.map((d) => d.name);
  // Some field (or the condition) differs somewhere, in a pre-state that
  // satisfies the invariants (instantiated at the query's terms).
  const invariants = specInvariants(a.pre);
  const goals = differing.map((d) => o.eq(d.a, d.b));
  const r = await engine.exclusive(() => checkQuery(engine, { goals, assume: (negated) => instantiate(invariants, [negated]), timeoutMs: opts.timeoutMs }));
  if (r.kind === 'proved') return { verdict: 'equivalent', ms: r.ms, fields };
  return { verdict: 'different', ms: r.ms, fields, reason: r.kind === 'undecided' ? r.reason : 'the steps differ in some pre-state' };
}
