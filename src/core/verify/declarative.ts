/**
 * The front door of the declarative checks: run a spec on a fresh symbolic
 * state and check that it preserves the spec invariants and every lemma
 * (kernel/lemmas, verify/step-lemmas.ts). No C is involved.
 *
 * The fast path (docs/lemmas.md, "Reusing the oracle's proof"): if the spec's
 * step is the oracle's step (term for term, or by one query under the spec
 * invariants, same-step.ts), the oracle's proof is the spec's proof: it is
 * taken from tasks/hv6/lemma-proofs.json or the caches' memo, or made once
 * and memoised. Any other step gets the full check. What is kept between
 * checks (each handler's start and oracle step, statement digests, oracle
 * proofs) is in the worker's cache object (caches.ts).
 */
import { oracleSpec } from '../kernel/content.ts';
import { findHandler, requireHandler } from '../kernel/handlers.ts';
import { CHECKED_LEMMAS } from '../kernel/lemmas/index.ts';
import { specInvariants } from '../kernel/spec-invariants.ts';
import { type AbstractState, freshState } from '../kernel/state.ts';
import { type Term, variable } from '../smt/term.ts';
import { BoundedMap } from '../bounded-map.ts';
import { SpecError, runSpec } from '../dialect/index.ts';
import { reachableCases } from './state-bank.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { type VerifierCaches, mapSlot } from './caches.ts';
import type { VerifyEnv } from './env.ts';
import { KnownFacts, mergeState } from './known-facts.ts';
import { type FactMemo, type LemmaResult, QUANTIFIED_LEMMA } from './fact-prover.ts';
import { type StepLemmaOptions, proveStepLemmas } from './step-lemmas.ts';
import { type ObligationOutcome, worst } from './outcome.ts';
import { STORED_PROOFS, type StoredProof, proofFor, proofKey, storedProof } from './proof-cache.ts';
import { compareSteps } from './same-step.ts';
import type { SymbolicStep } from './steps.ts';
import type { ObligationResult } from './verdict.ts';

/**
 * How the declarative check went: the step is the oracle's term for term
 * (`identical`) or proved the same map by map (`equivalent`), and the
 * oracle's proof is reused; or the step differs from the oracle's in some
 * map and is checked, taking as known what it shares with the oracle's
 * statement or with earlier steps (`partial`: some facts known; `full`:
 * none, or reuse was off).
 */
export type DeclarativePath = 'identical' | 'equivalent' | 'partial' | 'full';

/** How a result was reached without checking the spec's own step. */
export interface Reused {
  /** How the step was shown to be the oracle's. */
  readonly same: 'identical' | 'equivalent';
  /** Where the oracle's proof came from: the committed file, or this process (made now or earlier). */
  readonly proof: 'stored' | 'process';
}

export type DeclarativeResult =
  | { readonly status: 'spec-error'; readonly error: Diagnostic }
  | {
      readonly status: ObligationOutcome;
      /** One entry per lemma, then one per spec invariant ("inv: <name>"). */
      readonly results: readonly ObligationResult[];
      readonly ms: number;
      /** Set when the oracle's proof was reused (then no result has its own ms). */
      readonly reused?: Reused;
      readonly path: DeclarativePath;
      /** Facts of the statement taken as known, and solver queries asked for the others. */
      readonly known: number;
      /** Some failure is on the solver's word: the spec has a quantifier (fact-prover.ts, QUANTIFIED_LEMMA). */
      readonly onWord?: true;
      /** `stopAtFailure` stopped at the first lemma not proved: `results` has no entry for the rest. */
      readonly stopped?: true;
      /** Facts refuted by a model kept from an earlier step, without the solver (fact-prover.ts, `FactMemo.witnesses`). */
      readonly kept?: number;
    };

export interface DeclarativeOptions {
  readonly timeoutMs?: number;
  readonly only?: readonly string[];
  /**
   * Reuse what is known: the oracle's proof when the step is the oracle's,
   * the facts the step shares with the oracle's or earlier steps' otherwise
   * (default true; false: the full check of the step's own statement).
   */
  readonly reuse?: boolean;
  /**
   * Stop at the first lemma (or invariant) not proved: the status is then
   * not `proved`, as the full check's would be, but the other results are
   * left out (strict grading needs only whether everything is proved).
   */
  readonly stopAtFailure?: boolean;
  /** Called after each solver query of the lemma checks (for benchmarks and debugging). */
  readonly onQuery?: StepLemmaOptions['onQuery'];
}

/** The environment of the declarative checks: no kernel is involved. */
export type DeclarativeEnv = Pick<VerifyEnv, 'engine' | 'caches'>;

/**
 * Budget of comparing a step with the oracle's (ms): past it, the maps not
 * yet shown the same count as different, which costs only the reuse. A map
 * that is the same is shown so in a few hundred ms on the corpus; one that
 * differs takes a model to show, and that is not worth more than this.
 */
const SAME_STEP_MS = 2000;

function asObligation(r: LemmaResult, prefix = ''): ObligationResult {
  const parts = r.failedParts?.length ? r.failedParts.join(', ') : undefined;
  const reason = r.onWord ? (parts ? `${parts}: ${QUANTIFIED_LEMMA}` : QUANTIFIED_LEMMA) : parts;
  return { name: `${prefix}${r.name}`, status: r.status, ms: r.ms, ...(reason ? { reason } : {}) };
}

interface Checked {
  readonly results: ObligationResult[];
  readonly onWord: boolean;
  readonly stopped: boolean;
  /** Facts a kept model refuted. */
  readonly kept: number;
}

/**
 * The check of one step's own statement, as obligation results; with a
 * memo, what it knows is not asked again, and what is proved is added.
 */
async function check(
  step: SymbolicStep,
  env: DeclarativeEnv,
  opts: DeclarativeOptions,
  more: Pick<StepLemmaOptions, 'memo' | 'first' | 'reachable'> = {},
): Promise<Checked> {
  let kept = 0;
  const onQuery: StepLemmaOptions['onQuery'] = (q) => {
    if (q.witness) kept++;
    opts.onQuery?.(q);
  };
  const report = await proveStepLemmas(step, env.engine, { timeoutMs: opts.timeoutMs, only: opts.only, stopAtFailure: opts.stopAtFailure, onQuery, ...more });
  const all = [...report.lemmas, ...report.invariants];
  // Stopped early, the invariants still being retried are not settled: left out.
  const invariants = report.stopped ? report.invariants.filter((r) => r.status === 'proved') : report.invariants;
  return {
    results: [...report.lemmas.map((r) => asObligation(r)), ...invariants.map((r) => asObligation(r, 'inv: '))],
    onWord: all.some((r) => r.onWord),
    stopped: report.stopped === true,
    kept,
  };
}

/** A check's result, with the time since `started`. */
function outcomeOf(c: Checked, started: number, path: DeclarativePath, known: number): Extract<DeclarativeResult, { results: unknown }> {
  // A stopped check has a result that is not proved (it may be missing if only an invariant's retry failed).
  const status = c.stopped && worst(c.results.map((r) => r.status)) === 'proved' ? 'failed' : worst(c.results.map((r) => r.status));
  return {
    status,
    results: c.results,
    ms: Date.now() - started,
    path,
    known,
    ...(c.onWord ? { onWord: true as const } : {}),
    ...(c.stopped ? { stopped: true as const } : {}),
    ...(c.kept ? { kept: c.kept } : {}),
  };
}

/** One handler's start: the pre-state and arguments, and the oracle's step from them. */
export interface DeclarativeBase {
  readonly pre: AbstractState;
  readonly args: Term[];
  readonly oracle?: SymbolicStep;
  /** Lemma set -> the key of the oracle's proof. */
  readonly keys: BoundedMap<string, string>;
  /** Proof keys whose committed proof has been recorded as known facts (known-facts.ts). */
  readonly seeded: Set<string>;
}

/** Lemma sets whose proof keys a base keeps: the default set and a few `--only` ones. */
const KEYS_PER_BASE = 8;

/** Each handler's start, by handler and oracle text. */
const BASES = mapSlot<string, DeclarativeBase>('declarativeBases');

function keyOf(base: DeclarativeBase & { oracle: SymbolicStep }, lemmas: readonly string[], caches: VerifierCaches): string {
  const k = lemmas.join(',');
  let key = base.keys.get(k);
  if (key === undefined) base.keys.set(k, (key = proofKey(base.oracle, lemmas, caches)));
  return key;
}

function baseOf(handler: string, caches: VerifierCaches): DeclarativeBase {
  const text = oracleSpec(handler);
  const memoKey = `${handler}\0${text ?? ''}`;
  const bases = caches.slot(BASES);
  const hit = bases.get(memoKey);
  if (hit) return hit;
  const h = findHandler(handler)!;
  const pre = freshState('decl.');
  const args = h.args.map((a) => variable(`arg.${a.name}`, a.width));
  const run = text === undefined ? undefined : runSpec(text, h.name, pre, args, { force: 'all' });
  const base: DeclarativeBase = {
    pre,
    args,
    keys: new BoundedMap(KEYS_PER_BASE),
    seeded: new Set(),
    ...(run?.ok ? { oracle: { pre, cond: run.cond, post: run.post, handler: h.name } } : {}),
  };
  bases.set(memoKey, base);
  return base;
}

/**
 * What is known of the oracle's statement; with `seed`, every fact of it
 * when the committed proof is current for this lemma set (recorded once per
 * cache object).
 */
function oracleFacts(h: string, base: DeclarativeBase & { oracle: SymbolicStep }, lemmas: readonly string[], caches: VerifierCaches, seed: boolean): KnownFacts {
  const facts = new KnownFacts(caches, base.oracle, lemmas);
  const key = keyOf(base, lemmas, caches);
  if (seed && !base.seeded.has(key) && storedProof(h, key, STORED_PROOFS)) {
    facts.provedAll();
    base.seeded.add(key);
  }
  return facts;
}

/**
 * Checks the spec's step for `handler` against the spec invariants and
 * lemmas. A spec's error raised while its step is read (none is expected:
 * the run pins every map it writes) is a `spec-error`, as one raised by
 * the run.
 */
export async function proveSpecLemmas(handler: string, spec: string, env: DeclarativeEnv, opts: DeclarativeOptions = {}): Promise<DeclarativeResult> {
  try {
    return await proveSpecLemmasNow(handler, spec, env, opts);
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    return { status: 'spec-error', error: e.toDiagnostic(e.source ?? spec) };
  }
}

async function proveSpecLemmasNow(handler: string, spec: string, env: DeclarativeEnv, opts: DeclarativeOptions): Promise<DeclarativeResult> {
  const started = Date.now();
  const h = requireHandler(handler);
  const { engine, caches } = env;
  const base = baseOf(h.name, caches);
  const run = runSpec(spec, h.name, base.pre, base.args, { force: 'all' });
  if (!run.ok) return { status: 'spec-error', error: run.error };
  const step: SymbolicStep = { pre: base.pre, cond: run.cond, post: run.post, handler: h.name };
  const oracle = base.oracle;
  if (opts.reuse === false || !oracle) return outcomeOf(await check(step, env, opts), started, 'full', 0);

  const lemmas = opts.only ?? CHECKED_LEMMAS;
  const withOracle = { ...base, oracle };
  const cmp = await compareSteps(step, oracle, engine, { timeoutMs: Math.min(opts.timeoutMs ?? SAME_STEP_MS, SAME_STEP_MS) });
  if (cmp.different.length === 0) {
    // The oracle's step: its proof is this step's proof. Made here (and
    // memoised), it asks only what the worker does not know yet.
    const key = keyOf(withOracle, lemmas, caches);
    const known = oracleFacts(h.name, withOracle, lemmas, caches, false);
    const proof = await proofFor(h.name, key, async () => (await check(oracle, env, { ...opts, stopAtFailure: false }, { memo: known })).results, caches);
    if (proof) {
      // Every lemma of the set and every invariant, proved (as the full check names them).
      const results: ObligationResult[] = [
        ...lemmas.map((name) => ({ name, status: 'proved' as const })),
        ...specInvariants(base.pre).map((f) => ({ name: `inv: ${f.name}`, status: 'proved' as const })),
      ];
      const same = cmp.equivalent.length ? 'equivalent' : 'identical';
      const reused: Reused = { same, proof: proof === storedProof(h.name, key, STORED_PROOFS) ? 'stored' : 'process' };
      return { status: worst(results.map((r) => r.status)), results, ms: Date.now() - started, reused, path: same, known: 0 };
    }
  }
  // The step differs from the oracle's somewhere: its own statement, with
  // every fact it shares with the oracle's (or an earlier step's) known, and
  // the lemmas whose facts differ first.
  const merged = { ...step, post: mergeState(step.post, oracle.post, new Set([...cmp.identical, ...cmp.equivalent])) };
  const memo = new KnownFacts(caches, merged, lemmas, oracleFacts(h.name, withOracle, lemmas, caches, true));
  // The reachable cases serve only a check that stops at the first failure (step-lemmas.ts).
  const reachable = opts.stopAtFailure ? { symbols: { pre: base.pre, args: base.args }, cases: reachableCases(h.name, caches) } : undefined;
  const c = await check(step, env, opts, { memo, first: memo.differingLemmas(), ...(reachable ? { reachable } : {}) });
  return outcomeOf(c, started, memo.hits > 0 ? 'partial' : 'full', memo.hits);
}

/**
 * Makes the proof of `handler`'s oracle with the default lemma set (the full
 * check, nothing reused), with its key: an entry of tasks/hv6/lemma-proofs.json.
 * Undefined when there is no oracle or something is not proved.
 */
export async function proveOracle(
  handler: string,
  env: DeclarativeEnv,
  opts: { readonly timeoutMs?: number } = {},
): Promise<{ proof?: StoredProof; results: readonly ObligationResult[] } | undefined> {
  const oracle = baseOf(handler, env.caches).oracle;
  if (!oracle) return undefined;
  const started = Date.now();
  const { results } = await check(oracle, env, opts);
  const ms = Date.now() - started;
  const key = oracleProofKey(env.caches, handler)!;
  return results.every((r) => r.status === 'proved') ? { proof: { key, ms }, results } : { results };
}

/** The key the oracle proof of `handler` must have to be reused now (undefined: no oracle). */
export function oracleProofKey(caches: VerifierCaches, handler: string, lemmas: readonly string[] = CHECKED_LEMMAS, version?: string): string | undefined {
  const base = baseOf(handler, caches);
  const oracle = base.oracle;
  if (!oracle) return undefined;
  return version === undefined ? keyOf({ ...base, oracle }, lemmas, caches) : proofKey(oracle, lemmas, caches, version);
}
