/**
 * The front door of the declarative checks: run a spec on a fresh symbolic
 * state and check that it preserves the spec invariants and every lemma
 * (kernel/lemmas, verify/lemma-check.ts). No C is involved.
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
import { runSpec } from '../dialect/index.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { type VerifierCaches, mapSlot } from './caches.ts';
import type { VerifyEnv } from './env.ts';
import { type LemmaResult, QUANTIFIED_LEMMA, checkLemmas } from './lemma-check.ts';
import { type Outcome, worst } from './outcome.ts';
import { STORED_PROOFS, type StoredProof, proofFor, proofKey, storedProof } from './proof-cache.ts';
import { type SameStep, sameStep } from './same-step.ts';
import type { SymbolicStep } from './steps.ts';
import type { ObligationResult } from './verdict.ts';

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
      readonly status: Outcome;
      /** One entry per lemma, then one per spec invariant ("inv: <name>"). */
      readonly results: readonly ObligationResult[];
      readonly ms: number;
      /** Set when the oracle's proof was reused (then no result has its own ms). */
      readonly reused?: Reused;
      /** Some failure is on the solver's word: the spec has a quantifier (lemma-check.ts, QUANTIFIED_LEMMA). */
      readonly onWord?: true;
    };

export interface DeclarativeOptions {
  readonly timeoutMs?: number;
  readonly only?: readonly string[];
  /** Reuse the oracle's proof when the step is the oracle's (default true). */
  readonly reuse?: boolean;
}

/** The environment of the declarative checks: no kernel is involved. */
export type DeclarativeEnv = Pick<VerifyEnv, 'engine' | 'caches'>;

/** Budget of the one query comparing a step with the oracle's: past it, the full check decides. */
const SAME_STEP_MS = 5000;

function asObligation(r: LemmaResult, prefix = ''): ObligationResult {
  const parts = r.failedParts?.length ? r.failedParts.join(', ') : undefined;
  const reason = r.onWord ? (parts ? `${parts}: ${QUANTIFIED_LEMMA}` : QUANTIFIED_LEMMA) : parts;
  return { name: `${prefix}${r.name}`, status: r.status, ms: r.ms, ...(reason ? { reason } : {}) };
}

/** The full check of one step, as obligation results, and whether a failure is on the solver's word. */
async function fullCheck(step: SymbolicStep, env: DeclarativeEnv, opts: DeclarativeOptions): Promise<{ results: ObligationResult[]; onWord: boolean }> {
  const report = await checkLemmas(step, env.engine, { timeoutMs: opts.timeoutMs, only: opts.only });
  const all = [...report.lemmas, ...report.invariants];
  return {
    results: [...report.lemmas.map((r) => asObligation(r)), ...report.invariants.map((r) => asObligation(r, 'inv: '))],
    onWord: all.some((r) => r.onWord),
  };
}

/** One handler's start: the pre-state and arguments, and the oracle's step from them. */
export interface DeclarativeBase {
  readonly pre: AbstractState;
  readonly args: Term[];
  readonly oracle?: SymbolicStep;
  /** Lemma set -> the key of the oracle's proof. */
  readonly keys: BoundedMap<string, string>;
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
    ...(run?.ok ? { oracle: { pre, cond: run.cond, post: run.post, handler: h.name } } : {}),
  };
  bases.set(memoKey, base);
  return base;
}

/** Checks the spec's step for `handler` against the spec invariants and lemmas. */
export async function checkDeclarative(handler: string, spec: string, env: DeclarativeEnv, opts: DeclarativeOptions = {}): Promise<DeclarativeResult> {
  const started = Date.now();
  const h = requireHandler(handler);
  const { engine, caches } = env;
  const base = baseOf(h.name, caches);
  const run = runSpec(spec, h.name, base.pre, base.args, { force: 'all' });
  if (!run.ok) return { status: 'spec-error', error: run.error };
  const step: SymbolicStep = { pre: base.pre, cond: run.cond, post: run.post, handler: h.name };
  const oracle = base.oracle;
  if (opts.reuse !== false && oracle) {
    const same: SameStep = await sameStep(step, oracle, engine, { timeoutMs: Math.min(opts.timeoutMs ?? SAME_STEP_MS, SAME_STEP_MS) });
    if (same.verdict !== 'different') {
      const key = keyOf({ ...base, oracle }, opts.only ?? CHECKED_LEMMAS, caches);
      const proof = await proofFor(h.name, key, async () => (await fullCheck(oracle, env, opts)).results, caches);
      if (proof) {
        // Every lemma of the set and every invariant, proved (as the full check names them).
        const results: ObligationResult[] = [
          ...(opts.only ?? CHECKED_LEMMAS).map((name) => ({ name, status: 'proved' as const })),
          ...specInvariants(base.pre).map((f) => ({ name: `inv: ${f.name}`, status: 'proved' as const })),
        ];
        const reused: Reused = { same: same.verdict, proof: proof === storedProof(h.name, key, STORED_PROOFS) ? 'stored' : 'process' };
        return { status: worst(results.map((r) => r.status)), results, ms: Date.now() - started, reused };
      }
    }
  }
  const { results, onWord } = await fullCheck(step, env, opts);
  return { status: worst(results.map((r) => r.status)), results, ms: Date.now() - started, ...(onWord ? { onWord: true as const } : {}) };
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
  const { results } = await fullCheck(oracle, env, opts);
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
