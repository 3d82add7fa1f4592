/**
 * Universally quantified facts without quantifiers in the solver: an assumed
 * fact is instantiated at the ground terms a query actually uses (trigger
 * based, like E-matching), and a fact to prove is skolemised (its negation
 * is an instance at fresh constants). The one engine behind both the
 * representation invariants of refinement and the spec invariants and
 * lemmas of the declarative checks.
 *
 * Instantiating fewer assumptions only weakens the hypothesis, so "proved"
 * stays sound; a missing instance can only produce a spurious counterexample,
 * which the callers' counterexample checks catch.
 */
import type { Quantified, Trigger } from './quantified.ts';
import { eachSubterm } from './subterms.ts';
import { type Term, variable } from './term.ts';

/** How many generations a fact without its own `depth` fires for: the query's terms and the terms their instances bring. */
export const DEFAULT_DEPTH = 1;

/** Enough for the largest oracle; a query that needs more is a sign of a trigger loop. */
const DEFAULT_LIMIT = 50000;

export interface InstantiateOptions {
  /** At most this many instances (default 50000). */
  readonly limit?: number;
  /**
   * Whether the terms of the facts without variables count among the roots
   * (default true). Refinement leaves them out: its instances were settled
   * without them, and more instances steer the solver to other models.
   */
  readonly groundRoots?: boolean;
  /**
   * The order of the instances of one generation (default 'term'): 'term'
   * walks the applications by function, in the order they were found, and
   * fires every fact triggered on each; 'fact' walks the facts and fires
   * each at every application its triggers name. Both give the same set;
   * the order the solver sees them in changes its models (the
   * counterexamples shown) and its time, so each caller keeps its own.
   */
  readonly order?: 'term' | 'fact';
}

/** All `app` sub-terms of `roots` not in `seen`, grouped by function name, in the order found. */
export function applications(roots: readonly Term[], into = new Map<string, Term[]>(), seen = new Set<number>()): Map<string, Term[]> {
  eachSubterm(
    roots,
    (t) => {
      if (t.op !== 'app') return;
      const list = into.get(t.decl!.name);
      if (list) list.push(t);
      else into.set(t.decl!.name, [t]);
    },
    seen,
  );
  return into;
}

function depthOf(f: Quantified): number {
  return f.depth ?? DEFAULT_DEPTH;
}

/**
 * Instances of `facts` at the ground terms of `roots`, by generation: the
 * roots' terms are generation 0, and the terms an instance brings are one
 * generation past the application it fired at. A fact fires only at
 * applications no older than its depth, which stops fan-outs (pid -> page
 * -> owner -> pid) while letting chains the fact is marked for run. A fact
 * with cross-product triggers (`pairs`) also fires at every pair its owner
 * and owned triggers bind among generation 0's terms. Facts without
 * variables are always included, first; an instance that is literally true
 * is dropped.
 */
export function instantiate(facts: readonly Quantified[], roots: readonly Term[], opts: InstantiateOptions = {}): Term[] {
  const limit = opts.limit ?? DEFAULT_LIMIT;
  const ground = facts.filter((f) => f.vars.length === 0).map((f) => f.body([]));
  const quantified = facts.filter((f) => f.vars.length > 0);
  const out: Term[] = [...ground];
  const seen = new Set<number>();
  const done = new Set<string>();
  const fire = (f: Quantified, xs: readonly Term[], into: Term[]) => {
    const key = `${f.name}:${xs.map((x) => x.id).join(',')}`;
    if (done.has(key)) return;
    done.add(key);
    const inst = f.body(xs);
    if (!(inst.op === 'const' && inst.value === true)) into.push(inst);
  };
  const fireAt = (f: Quantified, t: Trigger, a: Term, into: Term[]) => {
    const xs = t.positions.map((p) => a.args[p]);
    if (xs.some((x, i) => x === undefined || x.sort !== f.vars[i])) return;
    fire(f, xs, into);
  };
  // The applications first seen in the current generation.
  let current = applications(opts.groundRoots === false ? roots : [...roots, ...ground], new Map(), seen);
  // Cross-product instances count as generation 0's (their terms are generation 1).
  const paired: Term[] = [];
  for (const f of quantified) if (f.pairs) firePairs(f, current, fire, paired);

  const byFn = new Map<string, { f: Quantified; t: Trigger }[]>();
  for (const f of quantified) {
    for (const t of f.triggers) {
      const list = byFn.get(t.fn);
      if (list) list.push({ f, t });
      else byFn.set(t.fn, [{ f, t }]);
    }
  }
  const deepest = quantified.reduce((d, f) => Math.max(d, depthOf(f)), 0);
  for (let gen = 0; gen <= deepest && out.length < limit; gen++) {
    const fresh: Term[] = gen === 0 ? paired : [];
    if (opts.order === 'fact') {
      for (const f of quantified) {
        if (depthOf(f) < gen) continue;
        for (const t of f.triggers) for (const a of current.get(t.fn) ?? []) fireAt(f, t, a, fresh);
      }
    } else {
      for (const [fn, apps] of current) {
        for (const { f, t } of byFn.get(fn) ?? []) {
          if (depthOf(f) < gen) continue;
          for (const a of apps) fireAt(f, t, a, fresh);
        }
      }
    }
    out.push(...fresh.slice(0, Math.max(0, limit - out.length)));
    current = applications(fresh, new Map(), seen);
  }
  return out;
}

/** The instances of `f` at every (owner, owned) pair its cross-product triggers bind among `current`. */
function firePairs(
  f: Quantified,
  current: ReadonlyMap<string, readonly Term[]>,
  fire: (f: Quantified, xs: readonly Term[], into: Term[]) => void,
  into: Term[],
): void {
  const bind = (trigs: readonly Trigger[], sorts: readonly number[]): Term[][] => {
    const found = new Map<string, Term[]>();
    for (const t of trigs)
      for (const a of current.get(t.fn) ?? []) {
        const xs = t.positions.map((p) => a.args[p]);
        if (xs.some((x, i) => x === undefined || x.sort !== sorts[i])) continue;
        found.set(xs.map((x) => x.id).join(','), xs);
      }
    return [...found.values()];
  };
  const owners = bind(f.pairs!.owner, f.vars.slice(0, 1));
  const objects = bind(f.pairs!.owned, f.vars.slice(1));
  for (const ow of owners) for (const xs of objects) fire(f, [...ow, ...xs], into);
}

/**
 * The instance of `fact` at fresh constants `sk.<tag>.<key>.<i>`: prove it
 * to prove the fact. Facts skolemised under the same tag and key share
 * their constants (by default each fact has its own).
 */
export function skolemize(fact: Quantified, tag: string, key = fact.name): { goal: Term; vars: Term[] } {
  const vars = fact.vars.map((s, i) => variable(`sk.${tag}.${key}.${i}`, s));
  return { goal: fact.body(vars), vars };
}
