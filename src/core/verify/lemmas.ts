/**
 * The declarative checks (DESIGN.md "What is proved", item 2). For one
 * handler's spec, from a fresh symbolic pre-state s and its post-state s'
 * (already `If(cond, new, s)`):
 *
 *   spec_invariants(s)            ⇒ spec_invariants(s')
 *   spec_invariants(s) ∧ L(s)     ⇒ L(s')          for every lemma L
 *
 * Assumed facts are instantiated at the query's ground terms; facts to prove
 * are skolemised, one obligation per fact, so a failure names its fact. An
 * invariant not provable from the invariants alone is retried with each
 * lemma assumed as well, which is upstream's statement (spec_invariants ∧ L
 * ⇒ spec_invariants' ∧ L', per lemma).
 *
 * Handler-independent checks, cached per engine: each corollary follows from
 * its lemma and the invariants, and the boot witness (an instance of
 * initial()) satisfies the invariants, every lemma and every corollary.
 */
import { COROLLARIES, CHECKED_LEMMAS, LEMMAS, type Lemma, bootWitness, findLemma } from '../kernel/lemmas/index.ts';
import { SEED_PREFIX, isDerived } from '../kernel/lemmas/helpers.ts';
import { specInvariants } from '../kernel/spec-invariants.ts';
import { type AbstractState, freshState } from '../kernel/state.ts';
import * as o from '../smt/ops.ts';
import type { SmtEngine } from '../smt/solver.ts';
import { BOOL, type Term } from '../smt/term.ts';
import { type Obligation, prove } from './prove.ts';
import { type Quantified, instantiate, skolemize } from './quantified.ts';
import type { ObligationResult } from './verdict.ts';

export type CheckStatus = 'proved' | 'failed' | 'timeout' | 'unknown';

/** How one lemma (or invariant, or corollary) fared. */
export interface LemmaResult {
  readonly name: string;
  readonly status: CheckStatus;
  /** Wall time of its queries, instantiation included. */
  readonly ms: number;
  /** The facts a counterexample falsifies (failed only). */
  readonly failedParts?: string[];
}

export interface LemmaReport {
  readonly lemmas: LemmaResult[];
  /** One entry per spec invariant. */
  readonly invariants: LemmaResult[];
}

export interface LemmaInput {
  readonly pre: AbstractState;
  /** The spec's success condition (already folded into `post`; kept for reporting). */
  readonly cond: Term;
  readonly post: AbstractState;
  readonly handler: string;
}

export interface LemmaOptions {
  /** Per-query solver timeout. */
  readonly timeoutMs?: number;
  /** Lemma names to check (default: every lemma but the report-only ones). */
  readonly only?: readonly string[];
  /** Instantiation rounds (default 2). */
  readonly rounds?: number;
}

const DEFAULT_ROUNDS = 2;
// Enough for the largest oracle; a query that needs more is a sign of a trigger loop.
const INSTANCE_LIMIT = 50000;

/** The seed application of a skolemised goal: it lets same-domain assumptions fire at the skolems. */
function seedOf(f: Quantified, vars: readonly Term[]): Term | undefined {
  const seed = f.triggers.find((t) => t.fn.startsWith(SEED_PREFIX));
  if (!seed || vars.length === 0) return undefined;
  return o.app(o.declareFun(seed.fn, vars.map((v) => v.sort), BOOL), [...vars]);
}

interface FactsOutcome {
  readonly results: ObligationResult[];
  readonly ms: number;
}

/**
 * Proves each of `goals` (skolemised, tagged `tag`) assuming `assumed`
 * (instantiated). Returns one result per goal, in order.
 */
async function proveFacts(
  goals: readonly Quantified[],
  assumed: readonly Quantified[],
  tag: string,
  engine: SmtEngine,
  opts: { timeoutMs?: number; rounds?: number },
): Promise<FactsOutcome> {
  const started = Date.now();
  const seeds: Term[] = [];
  const obligations: Obligation[] = goals.map((f) => {
    const { goal, vars } = skolemize(f, tag);
    const seed = seedOf(f, vars);
    if (seed) seeds.push(seed);
    return { name: f.name, goal };
  });
  // Ground assumptions (current is valid, ...) also bring terms worth instantiating at.
  const groundTerms = assumed.filter((f) => f.vars.length === 0).map((f) => f.body([]));
  const rounds = opts.rounds ?? DEFAULT_ROUNDS;
  const outcome = await prove(obligations, engine, {
    timeoutMs: opts.timeoutMs,
    assume: (roots) => instantiate(assumed, [...roots, ...seeds, ...groundTerms], rounds, INSTANCE_LIMIT),
  });
  outcome.refutation?.model.dispose();
  return { results: outcome.results, ms: Date.now() - started };
}

/** Folds per-fact results into one entry: failed beats timeout beats unknown beats proved. */
function summarise(name: string, results: readonly ObligationResult[], ms: number): LemmaResult {
  const failed = results.filter((r) => r.status === 'failed').map((r) => r.name);
  if (failed.length > 0) return { name, status: 'failed', ms, failedParts: failed };
  if (results.some((r) => r.status === 'timeout')) return { name, status: 'timeout', ms };
  if (results.some((r) => r.status === 'unknown')) return { name, status: 'unknown', ms };
  return { name, status: 'proved', ms };
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
 * each selected lemma are preserved from `pre` to `post`.
 */
export async function checkLemmas(input: LemmaInput, engine: SmtEngine, opts: LemmaOptions = {}): Promise<LemmaReport> {
  const { pre, post, handler } = input;
  const lemmas = selectLemmas(opts.only);
  const invPre = specInvariants(pre);
  const invPost = specInvariants(post);

  const inv = await proveFacts(invPost, invPre, 'inv', engine, opts);
  const invariants = new Map<string, LemmaResult>();
  invPost.forEach((f, i) => {
    const r = inv.results[i];
    invariants.set(f.name, { name: f.name, status: r.status, ms: r.ms ?? 0 });
  });
  // Invariants the invariants alone do not carry over: upstream proves them
  // next to each lemma, so they hold if every lemma's assumption suffices.
  const retry = invPost.filter((f) => invariants.get(f.name)!.status !== 'proved');
  const retryOutcome = new Map<string, ObligationResult[]>(retry.map((f) => [f.name, []]));

  const results: LemmaResult[] = [];
  for (const lemma of lemmas) {
    const assumed = [...invPre, ...lemma.facts(pre, pre, handler)];
    const goals = lemma.facts(post, pre, handler).filter((f) => !isDerived(f));
    const out = await proveFacts(goals, assumed, lemma.name, engine, opts);
    results.push(summarise(lemma.name, out.results, out.ms));
    if (retry.length > 0) {
      const again = await proveFacts(retry, assumed, `inv.${lemma.name}`, engine, opts);
      retry.forEach((f, i) => retryOutcome.get(f.name)!.push({ ...again.results[i], name: lemma.name }));
    }
  }
  for (const f of retry) {
    const perLemma = retryOutcome.get(f.name)!;
    if (perLemma.length > 0 && perLemma.every((r) => r.status === 'proved')) {
      const first = invariants.get(f.name)!;
      invariants.set(f.name, { name: f.name, status: 'proved', ms: first.ms + perLemma.reduce((a, r) => a + (r.ms ?? 0), 0) });
    }
  }
  return { lemmas: results, invariants: [...invariants.values()] };
}

const corollaryCache = new WeakMap<SmtEngine, Promise<LemmaResult[]>>();
const initialCache = new WeakMap<SmtEngine, Promise<LemmaResult[]>>();

/** Each corollary follows from its lemma and the spec invariants, in any state. Cached per engine. */
export function checkCorollaries(engine: SmtEngine, opts: { timeoutMs?: number } = {}): Promise<LemmaResult[]> {
  let hit = corollaryCache.get(engine);
  if (!hit) {
    hit = (async () => {
      const out: LemmaResult[] = [];
      for (const c of COROLLARIES) {
        const s = freshState(`cor.${c.name}.`);
        const assumed = [...specInvariants(s), ...findLemma(c.lemma)!.facts(s, s)];
        const r = await proveFacts(c.facts(s), assumed, c.name, engine, opts);
        out.push(summarise(c.name, r.results, r.ms));
      }
      return out;
    })();
    corollaryCache.set(engine, hit);
  }
  return hit;
}

/**
 * initial() ∧ spec_invariants ∧ L is satisfiable, for every lemma and
 * corollary: the boot witness (an instance of initial()) satisfies each fact.
 * One entry for the invariants, then one per lemma and corollary. Cached per
 * engine.
 */
export function checkInitial(engine: SmtEngine, opts: { timeoutMs?: number } = {}): Promise<LemmaResult[]> {
  let hit = initialCache.get(engine);
  if (!hit) {
    hit = (async () => {
      const w = bootWitness();
      const groups: [string, Quantified[]][] = [
        ['spec_invariants', specInvariants(w)],
        ...LEMMAS.map((l): [string, Quantified[]] => [l.name, l.facts(w, w).filter((f) => !isDerived(f))]),
        ...COROLLARIES.map((c): [string, Quantified[]] => [c.name, c.facts(w)]),
      ];
      const out: LemmaResult[] = [];
      for (const [name, facts] of groups) {
        const r = await proveFacts(facts, [], `init.${name}`, engine, opts);
        out.push(summarise(name, r.results, r.ms));
      }
      return out;
    })();
    initialCache.set(engine, hit);
  }
  return hit;
}
