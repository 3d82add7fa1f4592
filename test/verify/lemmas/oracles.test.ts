/**
 * Required: every oracle spec keeps the spec invariants and every lemma.
 * A failure here means a lemma, its triggers, or the oracle is wrong.
 *
 * The full check of all 50 oracles takes several minutes on 2 cores, so it
 * runs where its results are kept: `scripts/gen-lemma-proofs.ts` proves each
 * oracle with the full check and commits the result under a key that binds
 * it to the kernel, the verifier version, the lemma set, the statement and
 * the oracle's step (docs/lemmas.md). Here every oracle must have such a
 * proof under the key it gets today (a stale or missing one fails, so any
 * change to a lemma, the kernel or the interpreter forces the full sweep
 * again), and the full check itself runs on a fixed sample of handlers from
 * each area of the kernel, so the checker that made the proofs is exercised
 * on every run.
 */
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine } from '../../../src/z3/node.ts';
import { HANDLERS } from '../../../src/core/kernel/handlers.ts';
import { CHECKED_LEMMAS } from '../../../src/core/kernel/lemmas/index.ts';
import { oracleProofKey } from '../../../src/core/verify/declarative.ts';
import { proveStepLemmas } from '../../../src/core/verify/step-lemmas.ts';
import { storedProof } from '../../../src/core/verify/proof-cache.ts';
import { oracleHandlers, oracleStep } from './oracle.ts';

const T = 900_000;

/** One handler per area (processes, page tables, files, IPC, devices, ports), each with a full check of a few seconds. */
const FULL_SAMPLE = ['sys_set_runnable', 'sys_kill', 'sys_protect_frame', 'sys_reclaim_page', 'sys_lseek', 'recv_proc', 'sys_reclaim_vector', 'sys_reclaim_port'];

describe('all 50 oracles pass every lemma', () => {
  it('there is an oracle spec for every handler', () => {
    expect(oracleHandlers()).toEqual(HANDLERS.map((h) => h.name).sort());
  });

  it('every oracle has a full-check proof of every lemma under the key it gets today', () => {
    const missing = oracleHandlers().filter((h) => !storedProof(h, oracleProofKey(nodeCaches(), h, CHECKED_LEMMAS)!));
    // If this fails: npx tsx scripts/gen-lemma-proofs.ts (it runs the full check).
    expect(missing).toEqual([]);
  });

  for (const handler of FULL_SAMPLE) {
    it(`${handler} keeps the spec invariants and every lemma (full check)`, async () => {
      const r = await proveStepLemmas(oracleStep(handler), await nodeEngine(), { timeoutMs: 120_000 });
      expect(r.lemmas.map((l) => l.name)).toEqual(CHECKED_LEMMAS);
      const notProved = [...r.invariants, ...r.lemmas].filter((l) => l.status !== 'proved');
      expect(notProved).toEqual([]);
    }, T);
  }
});
