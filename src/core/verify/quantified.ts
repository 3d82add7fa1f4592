/**
 * Universally quantified facts (invariants, lemmas) without quantifiers in
 * the solver: an assumed fact is instantiated at the ground terms the query
 * actually uses (trigger-based, like E-matching), and a fact to prove is
 * skolemised (its negation is an instance at fresh constants).
 *
 * Instantiating fewer assumptions only weakens the hypothesis, so "proved"
 * stays sound; a missing instance can only produce a spurious counterexample,
 * which the counterexample replay checks for.
 */
import type { Quantified } from '../smt/quantified.ts';
import { type Term, variable } from '../smt/term.ts';

export type { Quantified, Trigger } from '../smt/quantified.ts';

/** All `app` sub-terms of `roots`, grouped by function name. */
export function applications(roots: readonly Term[], into = new Map<string, Term[]>(), seen = new Set<number>()): Map<string, Term[]> {
  const stack = [...roots];
  while (stack.length) {
    const t = stack.pop()!;
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    if (t.op === 'app') {
      const list = into.get(t.decl!.name);
      if (list) list.push(t);
      else into.set(t.decl!.name, [t]);
    }
    for (const a of t.args) stack.push(a);
  }
  return into;
}

/**
 * Instances of `facts` at the ground terms of `roots`, iterated `rounds`
 * times (instances bring new terms, which can trigger more instances).
 * Facts without variables are included once.
 */
export function instantiate(facts: readonly Quantified[], roots: readonly Term[], rounds = 2, limit = 20000): Term[] {
  const out: Term[] = [];
  const done = new Set<string>();
  const seen = new Set<number>();
  const apps = applications(roots, new Map(), seen);
  for (const f of facts) {
    if (f.vars.length === 0) out.push(f.body([]));
  }
  let frontier = out.slice();
  for (let r = 0; r < rounds && out.length < limit; r++) {
    const fresh: Term[] = [];
    for (const f of facts) {
      if (f.vars.length === 0) continue;
      for (const trig of f.triggers) {
        for (const app of apps.get(trig.fn) ?? []) {
          const xs = trig.positions.map((p) => app.args[p]);
          if (xs.some((x, i) => x === undefined || x.sort !== f.vars[i])) continue;
          const key = `${f.name}:${xs.map((x) => x.id).join(',')}`;
          if (done.has(key)) continue;
          done.add(key);
          const inst = f.body(xs);
          if (inst.op === 'const' && inst.value === true) continue;
          fresh.push(inst);
          if (out.length + fresh.length >= limit) break;
        }
      }
    }
    out.push(...fresh);
    frontier = fresh;
    applications(frontier, apps, seen);
    if (fresh.length === 0) break;
  }
  return out;
}

/** The negation-ready instance of `fact` at fresh constants: prove this to prove the fact. */
export function skolemize(fact: Quantified, tag: string): { goal: Term; vars: Term[] } {
  const vars = fact.vars.map((s, i) => variable(`sk.${tag}.${fact.name}.${i}`, s));
  return { goal: fact.body(vars), vars };
}
