/**
 * Versions recorded with every run and share link: one app version (from
 * package.json, through the bundle), and one verifier version, a digest of everything a grade
 * depends on (the verifier's sources, the lemmas, the kernel and the oracle
 * specs), made when the bundle is built (`npm run bundle`,
 * scripts/bundle-lib.ts `verifierDigest`). A test fails when the digest is
 * stale, so the version changes whenever grading can change.
 */
import bundle from '../../tasks/hv6/bundle.json';

/** package.json's version, copied into the bundle by `npm run bundle`. */
export const APP_VERSION: string = bundle.appVersion;
export const VERIFIER_VERSION = `v-${bundle.verifierHash}`;

/**
 * The version a stored oracle lemma proof is keyed by (with the terms of its
 * statement and step): the solver interface and the proof driver, so that a
 * change elsewhere in the verifier keeps the proofs whose terms it leaves alone.
 */
export const PROOF_VERSION = `p-${bundle.proofHash}`;

/** What a run records about who made its grades. */
export const PROVENANCE = { app: APP_VERSION, verifier: VERIFIER_VERSION } as const;
