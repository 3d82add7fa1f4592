/**
 * Refinement proofs of the kernel as shipped, kept for reuse
 * (docs/design.md §3, "Reusing refinement proofs"). Two proofs per handler
 * are committed in tasks/hv6/refinement-proofs.json (`npx tsx
 * scripts/gen-lemma-proofs.ts` rebuilds it with the lemma proofs; a test
 * checks it is current):
 *
 * - `impl`: the implementation-only obligations (safety and the
 *   implementation's invariants), which no spec takes part in, so every
 *   answer graded against the kernel shares them;
 * - `spec`: the oracle spec's obligations (cond and every compared field).
 *
 * Each is stored under a key that digests exactly what it proved: the proof
 * version (the smt and verify sources, version.ts), the handler, the
 * assumed statement (every representation invariant of the program's C
 * memory over fresh variables; nothing is assumed of the globals'
 * addresses, as in hv6: refinement.ts `assumeInvariants`) and each obligation (its name, its
 * goal and its labelled parts). A goal is a term over the handler's symbolic start,
 * so a change to the kernel, the C executor, the state model, the
 * interpreter or the oracle spec changes the key, and the stored proof is
 * then simply not used. Only all-proved results are stored.
 *
 * What a stored proof gives: every goal it covers holds in every C state
 * that satisfies the representation invariants, with its globals at any
 * addresses (each query assumed only instances of the invariants). So the same goal, met again as a term of this
 * worker, is proved, whoever's step it comes from (proved-goals.ts).
 */
import stored from '../../../tasks/hv6/refinement-proofs.json';
import type { CMemory } from '../kernel/equiv.ts';
import { implInvariants } from '../kernel/invariants.ts';
import { Digest } from '../smt/digest.ts';
import { variable } from '../smt/term.ts';
import { PROOF_VERSION } from '../version.ts';
import type { Obligation } from './prove.ts';
import type { StoredProof } from './proof-cache.ts';
import type { ImplementationStep } from './steps.ts';

/** Which obligations of a handler's refinement a stored proof covers. */
export type RefinementSide = 'impl' | 'spec';

export interface RefinementProofFile {
  readonly format: 1;
  /** The proof version the proofs were made with (also part of each key). */
  readonly verifier: string;
  /** Handler -> the proof of each side of its oracle's refinement of the kernel. */
  readonly entries: Readonly<Record<string, Partial<Record<RefinementSide, StoredProof>>>>;
}

export const STORED_REFINEMENT_PROOFS: RefinementProofFile = stored as RefinementProofFile;

/** The statement digest of what a program's queries assume, per memory object (invariants are code). */
const statements = new WeakMap<CMemory, string>();

function assumedStatement(mem: CMemory): string {
  const hit = statements.get(mem);
  if (hit !== undefined) return hit;
  const d = new Digest();
  for (const f of implInvariants(mem)) {
    const xs = f.vars.map((sort, i) => variable(`stmt.x.${i}`, sort));
    d.add(`inv/${f.name}/${f.vars.join(',')}`, f.body(xs));
  }
  const v = d.value();
  statements.set(mem, v);
  return v;
}

/** The key of a proof of `obligations` of `handler` from the implementation's start (its memory), by `version` (default: this verifier). */
export function refinementProofKey(
  handler: string,
  side: RefinementSide,
  start: Pick<ImplementationStep, 'mem'>,
  obligations: readonly Obligation[],
  version: string = PROOF_VERSION,
): string {
  const d = new Digest().add('version', version).add('handler', handler).add('side', side).add('statement', assumedStatement(start.mem));
  for (const ob of obligations) {
    d.add(`goal.${ob.name}`, ob.goal);
    for (const p of ob.parts ?? []) d.add(`part.${ob.name}.${p.label}`, p.goal);
  }
  return d.value();
}

/** The committed proof of `side` of `handler`'s refinement, if it has exactly this key. */
export function storedRefinementProof(handler: string, side: RefinementSide, key: string, file: RefinementProofFile = STORED_REFINEMENT_PROOFS): StoredProof | undefined {
  const e = Object.hasOwn(file.entries, handler) ? file.entries[handler][side] : undefined;
  return e && e.key === key ? e : undefined;
}
