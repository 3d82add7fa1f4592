/**
 * Declarative proofs kept for reuse (docs/lemmas.md, "Reusing the oracle's
 * proof"). A proof is stored under a key that digests exactly what it proved:
 *
 * - the verifier version (its code version and the kernel hash, version.ts),
 * - the handler and the lemma set, in order,
 * - the statement: every spec invariant and every fact of every lemma (and
 *   of the lemmas it includes) over two fresh symbolic states, so a change
 *   to any lemma, invariant or helper changes the key,
 * - the step: its condition and each post-state field read at fresh probes,
 *   so a change to the oracle spec, the spec interpreter or the state model
 *   changes the key.
 *
 * Proofs of the oracles are committed in tasks/hv6/lemma-proofs.json
 * (`npx tsx scripts/gen-lemma-proofs.ts` rebuilds it; a test checks it is
 * current), so the browser and a fresh process need not redo them; others
 * are memoised in the worker's cache object (caches.ts), as are statement
 * digests. Only all-proved results are kept.
 */
import stored from '../../../tasks/hv6/lemma-proofs.json';
import { findLemma } from '../kernel/lemmas/index.ts';
import { isDerived } from '../kernel/lemmas/helpers.ts';
import { specInvariants } from '../kernel/spec-invariants.ts';
import { freshState } from '../kernel/state.ts';
import { Digest } from '../smt/digest.ts';
import { variable } from '../smt/term.ts';
import { PROOF_VERSION } from '../version.ts';
import type { Quantified } from '../smt/quantified.ts';
import { type CacheSlot, type SlotMap, type VerifierCaches, mapSlot, remember } from './caches.ts';
import { stepTerms } from './same-step.ts';
import type { SymbolicStep } from './steps.ts';
import type { ObligationResult } from './verdict.ts';

/**
 * A proof that every check under `key` (each lemma of its set, each spec
 * invariant) is proved: only all-proved results are kept, so the key is
 * all there is to store.
 */
export interface StoredProof {
  readonly key: string;
  /** How long the proof took when it was made. */
  readonly ms: number;
}

export interface ProofFile {
  readonly format: 1;
  /** The verifier version the proofs were made with (also part of each key). */
  readonly verifier: string;
  /** Handler -> the proof of its oracle's step with the default lemma set. */
  readonly entries: Readonly<Record<string, StoredProof>>;
}

export const STORED_PROOFS: ProofFile = stored as ProofFile;

/** Statement digests, by handler and lemma set (lemmas are code: a digest never goes stale). */
const STATEMENTS: CacheSlot<SlotMap<string, string>> = mapSlot('statements');
/** Oracle proofs made in this process, by proof key (only proofs: nothing else is kept). */
const ORACLE_PROOFS: CacheSlot<SlotMap<string, Promise<StoredProof | undefined>>> = mapSlot('oracleProofs');

function addFacts(d: Digest, label: string, facts: readonly Quantified[]): void {
  for (const f of facts) {
    const xs = f.vars.map((sort, i) => variable(`stmt.x.${i}`, sort));
    d.add(`${label}/${f.name}/${f.vars.join(',')}${isDerived(f) ? '/derived' : ''}`, f.body(xs));
  }
}

/** The digest of the statement checked for `handler` with `lemmas` (memoised: lemmas are code). */
function statementDigest(handler: string, lemmas: readonly string[], caches: VerifierCaches): string {
  const memoKey = `${handler}\0${lemmas.join(',')}`;
  const statements = caches.slot(STATEMENTS);
  const hit = statements.get(memoKey);
  if (hit) return hit;
  const s = freshState('stmt.new.');
  const old = freshState('stmt.old.');
  const d = new Digest();
  addFacts(d, 'inv.post', specInvariants(s));
  addFacts(d, 'inv.pre', specInvariants(old));
  const seen = new Set<string>();
  const lemma = (name: string, role: string) => {
    const l = findLemma(name);
    if (!l) throw new Error(`unknown lemma '${name}'`);
    d.add(`${role}:${name}`, `${l.reportOnly ? 'report-only' : 'checked'} includes=${(l.includes?.(handler) ?? []).join(',')}`);
    if (seen.has(name)) return;
    seen.add(name);
    addFacts(d, `${name}.post`, l.facts(s, old, handler));
    addFacts(d, `${name}.pre`, l.facts(old, old, handler));
    for (const n of l.includes?.(handler) ?? []) lemma(n, `${name}.includes`);
  };
  for (const n of lemmas) lemma(n, 'lemma');
  const v = d.value();
  statements.set(memoKey, v);
  return v;
}

/** The key of a proof of `step` with `lemmas`, by `version` (default: this verifier). */
export function proofKey(step: SymbolicStep, lemmas: readonly string[], caches: VerifierCaches, version: string = PROOF_VERSION): string {
  const d = new Digest().add('version', version).add('handler', step.handler).add('lemmas', lemmas.join(',')).add('statement', statementDigest(step.handler, lemmas, caches));
  for (const { name, term } of stepTerms(step)) d.add(`step.${name}`, term);
  return d.value();
}

/** The committed proof of `handler`'s oracle, if it has exactly this key. */
export function storedProof(handler: string, key: string, file: ProofFile = STORED_PROOFS): StoredProof | undefined {
  const e = Object.hasOwn(file.entries, handler) ? file.entries[handler] : undefined;
  return e && e.key === key ? e : undefined;
}

/**
 * The proof under `key`: the committed one, one memoised in `caches`, or
 * `prove()`'s (memoised if every check is proved; otherwise undefined, and
 * not kept).
 */
export function proofFor(
  handler: string,
  key: string,
  prove: () => Promise<readonly ObligationResult[]>,
  caches: VerifierCaches,
): Promise<StoredProof | undefined> {
  const committed = storedProof(handler, key);
  if (committed) return Promise.resolve(committed);
  return memoisedProof(caches, key, () => {
    const started = Date.now();
    return prove().then((results) => (results.every((r) => r.status === 'proved') ? { key, ms: Date.now() - started } : undefined));
  });
}

/**
 * The oracle proof under `key` made in this process (kept in `caches`),
 * made by `make` if absent. Only a proof is kept: an undefined outcome
 * (something not proved) or a failure is dropped, so the next call tries
 * again.
 */
export function memoisedProof(caches: VerifierCaches, key: string, make: () => Promise<StoredProof | undefined>): Promise<StoredProof | undefined> {
  return remember(caches.slot(ORACLE_PROOFS), key, make, (p) => p !== undefined);
}
