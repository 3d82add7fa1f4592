/**
 * The declarative facts a worker knows to hold (docs/lemmas.md, "Reusing
 * what is known"). The statement of the declarative checks for a handler is
 * a list of facts over the step's post-state, each proved under assumptions
 * that depend only on the handler and the pre-state (fact-prover.ts,
 * `FactMemo`). Every step of a handler is run from the same symbolic start
 * (declarative.ts), so a fact that is the same formula for two steps is the
 * same statement: proved once, it is proved for both.
 *
 * A fact is kept by its group and its formula: the body at canonical
 * variables, over a *merged* post-state, in which every map the checked
 * step was shown to share with the oracle's (same-step.ts) is the oracle's
 * map itself. The merged state equals the step's own wherever the
 * invariants hold, so its facts have the same truth as the step's, and a
 * fact that reads only shared maps is, term for term, the oracle's fact.
 * The committed proof of the oracle (when its key is current) makes every
 * fact of the oracle's statement known; the facts a check proves are added
 * as it goes, so later answers of the handler in the same worker reuse them.
 */
import { findLemma } from '../kernel/lemmas/index.ts';
import { isDerived } from '../kernel/lemmas/helpers.ts';
import { specInvariants } from '../kernel/spec-invariants.ts';
import { type AbstractState, type FieldValue, fieldFromParts, fieldParts } from '../kernel/state.ts';
import type { Quantified } from '../smt/quantified.ts';
import type { Snapshot } from '../smt/snapshot.ts';
import { type Term, variable } from '../smt/term.ts';
import { BoundedMap } from '../bounded-map.ts';
import { type CacheSlot, type CacheStats, type SlotValue, type VerifierCaches, cacheSlot } from './caches.ts';
import type { FactMemo } from './fact-prover.ts';
import { fromLemmas, isInvariantGroup } from './step-lemmas.ts';
import type { SymbolicStep } from './steps.ts';

/**
 * What a worker has learnt about facts: the facts proved, by
 * `<handler>\0<group>\0<formula id>`; and how often a fact of that name
 * was refuted, by `<group>\0<name>` (only an order to ask facts in: the
 * facts that broke other answers are the likeliest to break the next).
 */
class FactStore implements SlotValue {
  readonly proofs: BoundedMap<string, true>;
  readonly failures = new BoundedMap<string, number>(FAILURE_NAMES);
  /** Models that refuted a fact, newest first, by `<handler>\0<group>\0<name>`. */
  readonly witnesses = new BoundedMap<string, Snapshot[]>(WITNESS_FACTS);

  constructor(capacity: number) {
    this.proofs = new BoundedMap(capacity);
  }

  clear(): void {
    this.proofs.clear();
    this.failures.clear();
    this.witnesses.clear();
  }

  stats(): Partial<CacheStats> {
    return { factProofs: this.proofs.size };
  }
}

/** Facts whose refuting models are kept, and how many per fact (a snapshot is a few hundred values). */
const WITNESS_FACTS = 512;
const WITNESSES_PER_FACT = 2;

/** Facts whose failures are counted (per handler, for any handler, by kind): every fact of every lemma fits (about 150 by 50 handlers). */
const FAILURE_NAMES = 8192;

const FACTS: CacheSlot<FactStore> = cacheSlot((limits) => new FactStore(limits.factProofs));

// Canonical variable names no spec can know in advance: a spec that named a
// constant like one could make two different facts the same formula.
const NONCE = `${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

function formula(f: Quantified): Term {
  return f.body(f.vars.map((sort, i) => variable(`fact.${NONCE}.${i}`, sort)));
}

/** Orders ranks (lists of counts) left to right. */
function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** The post-state that is `b`'s map wherever `shared` names it, and `a`'s elsewhere. */
export function mergeState(a: AbstractState, b: AbstractState, shared: ReadonlySet<string>): AbstractState {
  const out = new Map<string, FieldValue>();
  for (const [path, va] of a) {
    const vb = b.get(path)!;
    const pb = fieldParts(vb);
    const maps = fieldParts(va).map((p, i) => (shared.has(`${path}${p.suffix}`) ? pb[i].map : p.map));
    out.set(path, maps.every((m, i) => m === pb[i].map) ? vb : fieldFromParts(va, maps));
  }
  return out;
}

/** What a worker knows of the facts of one step's statement: a `FactMemo` for the lemma checks. */
export class KnownFacts implements FactMemo {
  private readonly store: FactStore;
  private readonly groups = new Map<string, Map<string, Term>>();
  private readonly stated = new Map<string, Map<string, Quantified>>();
  /** Facts found known so far (by `known`). */
  hits = 0;

  /**
   * `step` is the merged step (`mergeState`) of the step to check; `lemmas`
   * the lemma set of the check (it names the group of invariants carried
   * over under each lemma); `reference` what is known of the oracle's step,
   * whose facts a differing fact is compared with.
   */
  constructor(
    caches: VerifierCaches,
    private readonly step: Pick<SymbolicStep, 'handler' | 'pre' | 'post'>,
    private readonly lemmas: readonly string[],
    private readonly reference?: KnownFacts,
  ) {
    this.store = caches.slot(FACTS);
  }

  /**
   * The facts that are not the oracle's first (where the step differs, so
   * where it may fail), the ones refuted most often before them.
   */
  order(group: string, facts: readonly Quantified[]): readonly Quantified[] {
    const differs = (f: Quantified) => this.reference !== undefined && this.formulas(group).get(f.name) !== this.reference.formulas(group).get(f.name);
    const ranks = new Map(facts.map((f) => [f.name, differs(f) ? [1, ...this.failures(group, f.name)] : [0]]));
    return [...facts].sort((a, b) => compareRanks(ranks.get(b.name)!, ranks.get(a.name)!));
  }

  failed(group: string, fact: Quantified, witness?: Snapshot): void {
    for (const k of this.failureKeys(group, fact.name)) this.store.failures.set(k, (this.store.failures.get(k) ?? 0) + 1);
    if (witness) {
      const w = this.handlerKey(group, fact.name);
      this.store.witnesses.set(w, [witness, ...(this.store.witnesses.get(w) ?? [])].slice(0, WITNESSES_PER_FACT));
    }
  }

  witnesses(group: string, fact: Quantified): readonly Snapshot[] {
    return this.store.witnesses.get(this.handlerKey(group, fact.name)) ?? [];
  }

  /** A fact of this handler: the key of its kept models and of its own failure count. */
  private handlerKey(group: string, name: string): string {
    return `${this.step.handler}\0${group}\0${name}`;
  }

  /**
   * The reference's fact of this name, when it is proved in this very group
   * (same assumptions: the handler's start and the group's lemma); never for
   * an invariant group, whose proofs may rest on other assumptions.
   */
  alongside(group: string, fact: Quantified): Quantified | undefined {
    if (!this.reference || isInvariantGroup(group)) return undefined;
    return this.reference.provedFact(group, fact.name);
  }

  private provedFact(group: string, name: string): Quantified | undefined {
    return this.isProved(group, name) ? this.facts(group).get(name) : undefined;
  }

  /** Is this step's fact of that name proved (for any step of the handler with the same formula)? */
  private isProved(group: string, name: string): boolean {
    const k = this.key(group, name);
    return k !== undefined && this.store.proofs.has(k);
  }

  known(group: string, fact: Quantified): boolean {
    const hit = this.isProved(group, fact.name);
    if (hit) this.hits++;
    return hit;
  }

  proved(group: string, fact: Quantified): void {
    const k = this.key(group, fact.name);
    if (k !== undefined) this.store.proofs.set(k, true);
  }

  /** Every fact of the statement is proved (a current proof of this very step). */
  provedAll(): void {
    const set = fromLemmas(this.lemmas);
    for (const name of this.formulas(set).keys()) this.store.proofs.set(this.key(set, name)!, true);
    for (const l of this.lemmas) for (const name of this.formulas(l).keys()) this.store.proofs.set(this.key(l, name)!, true);
  }

  /**
   * The lemmas with a fact that is not the reference's (where the steps may
   * differ), the lemma with the fact refuted most often first.
   */
  differingLemmas(): string[] {
    if (!this.reference) return [];
    const rank = new Map<string, number[]>();
    for (const l of this.lemmas) {
      const theirs = this.reference.formulas(l);
      for (const [name, t] of this.formulas(l)) {
        if (theirs.get(name) === t) continue;
        const r = this.failures(l, name);
        const best = rank.get(l);
        if (!best || compareRanks(r, best) > 0) rank.set(l, r);
      }
    }
    return [...rank.keys()].sort((a, b) => compareRanks(rank.get(b)!, rank.get(a)!));
  }

  /**
   * How often a fact was refuted, as a rank compared left to right: for
   * this handler (its answers tend to make the same mistake), for any
   * handler, and any fact of its kind (the name after the lemma's prefix:
   * `slots_match_ownership` of every Refcnt lemma).
   */
  private failures(group: string, name: string): number[] {
    return this.failureKeys(group, name).map((k) => this.store.failures.get(k) ?? 0);
  }

  private failureKeys(group: string, name: string): string[] {
    return [this.handlerKey(group, name), `${group}\0${name}`, `kind\0${name.slice(name.indexOf('.') + 1)}`];
  }

  private key(group: string, name: string): string | undefined {
    const t = this.formulas(group).get(name);
    return t === undefined ? undefined : `${this.step.handler}\0${group}\0${t.id}`;
  }

  /** The formulas of a group's facts, by name: the invariants for an invariant group, else the lemma's facts. */
  private formulas(group: string): Map<string, Term> {
    let hit = this.groups.get(group);
    if (hit) return hit;
    hit = new Map([...this.facts(group)].map(([name, f]) => [name, formula(f)]));
    this.groups.set(group, hit);
    return hit;
  }

  /** A group's facts over the step, by name: the invariants for an invariant group, else the lemma's facts. */
  private facts(group: string): Map<string, Quantified> {
    let hit = this.stated.get(group);
    if (hit) return hit;
    const { post, pre, handler } = this.step;
    const facts = isInvariantGroup(group) ? specInvariants(post) : (findLemma(group)?.facts(post, pre, handler) ?? []).filter((f) => !isDerived(f));
    hit = new Map(facts.map((f) => [f.name, f]));
    this.stated.set(group, hit);
    return hit;
  }
}
