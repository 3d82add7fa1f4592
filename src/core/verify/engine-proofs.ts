/**
 * The handler-independent declarative checks (docs/design.md §3, item 2),
 * kept per engine in the worker's cache object (caches.ts): each corollary
 * follows from its lemma and the invariants, and the boot witness (an
 * instance of initial()) satisfies the invariants, every lemma and every
 * corollary. Their facts are proved by the per-fact prover (fact-prover.ts).
 */
import { COROLLARIES, LEMMAS, bootWitness, findLemma } from '../kernel/lemmas/index.ts';
import { isDerived } from '../kernel/lemmas/helpers.ts';
import { specInvariants } from '../kernel/spec-invariants.ts';
import { freshState } from '../kernel/state.ts';
import type { SmtEngine } from '../smt/solver.ts';
import type { Quantified } from '../smt/quantified.ts';
import { type CacheStats, type SlotValue, cacheSlot, remember } from './caches.ts';
import type { VerifyEnv } from './env.ts';
import { type LemmaResult, lemmaResult, proveFacts } from './fact-prover.ts';
import { BoundedMap } from '../bounded-map.ts';

/** Options of the handler-independent checks. */
export interface EngineProofOptions {
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
export function proveCorollaries(env: Pick<VerifyEnv, 'engine' | 'caches'>, opts: EngineProofOptions = {}): Promise<LemmaResult[]> {
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
export function proveInitial(env: Pick<VerifyEnv, 'engine' | 'caches'>, opts: EngineProofOptions = {}): Promise<LemmaResult[]> {
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
