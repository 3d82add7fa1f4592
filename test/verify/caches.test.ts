/**
 * The verifier's cache object (src/core/verify/caches.ts), observed through
 * its own API: each cache stays within its bound, an implementation proof
 * that holds a Z3 model disposes it when evicted or cleared, the declarative
 * checks keep their state in the object they are given (not in the module),
 * and `clearVerifierCaches` empties everything. Small bounds, so a few cheap
 * verifications reach them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEngine, nodeZ3 } from '../../src/z3/node.ts';
import { KERNEL, oracleSpec } from '../../src/core/kernel/content.ts';
import { createEngine } from '../../src/core/smt/solver.ts';
import { proveSpecLemmas, oracleProofKey } from '../../src/core/verify/declarative.ts';
import { VerifierCaches, clearVerifierCaches, loadProgram, verify } from '../../src/core/verify/index.ts';
import { proveCorollaries, proveInitial } from '../../src/core/verify/engine-proofs.ts';
import { memoisedProof } from '../../src/core/verify/proof-cache.ts';

const unsafe = readFileSync('test/cases/mutants/sys_set_runnable/unchecked-pid.c', 'utf8');
const spec = oracleSpec('sys_set_runnable')!;

const EMPTY = {
  programs: 0,
  implRuns: 0,
  implProofs: 0,
  heldModels: 0,
  disposedModels: 0,
  specs: 0,
  declarativeBases: 0,
  statements: 0,
  oracleProofs: 0,
  factProofs: 0,
  provedGoals: 0,
  engineChecks: 0,
  reachableStates: 0,
};

describe('the verifier caches', () => {
  it('keep at most `programs` parsed programs, dropping the oldest', () => {
    const caches = new VerifierCaches({ programs: 2 });
    const first = loadProgram(caches, '', KERNEL);
    // (Identity compared as booleans: a failed toBe deep-compares two whole programs.)
    expect(loadProgram(caches, '', KERNEL) === first).toBe(true);
    loadProgram(caches, '/* a */', KERNEL);
    loadProgram(caches, '/* b */', KERNEL);
    expect(caches.stats().programs).toBe(2);
    // The first was evicted: it is parsed again.
    expect(loadProgram(caches, '', KERNEL) === first).toBe(false);
    expect(caches.stats().programs).toBe(2);
  }, 60_000);

  it('dispose the model of a refuted implementation proof when it is evicted, and clear everything', async () => {
    const caches = new VerifierCaches({ implProofs: 1 });
    const env = { engine: await nodeEngine(), caches };
    const refuted = await verify({ handler: 'sys_set_runnable', spec, implSource: unsafe }, env);
    expect(refuted.status === 'refuted' && refuted.failed).toContain('safety');
    // The implementation's own refutation is kept, with its model, for the next spec on this program.
    expect(caches.stats()).toMatchObject({ programs: 1, implRuns: 1, implProofs: 1, heldModels: 1, disposedModels: 0, specs: 1 });

    // The kernel's proof takes the only slot: the refuting model goes with the entry it leaves.
    expect((await verify({ handler: 'sys_set_runnable', spec }, env)).status).toBe('verified');
    expect(caches.stats()).toMatchObject({ programs: 2, implProofs: 1, heldModels: 0, disposedModels: 1 });

    const again = await verify({ handler: 'sys_set_runnable', spec, implSource: unsafe }, env);
    expect(again.status === 'refuted' && again.counterexample?.replayed).toBe(true);
    expect(caches.stats()).toMatchObject({ implProofs: 1, heldModels: 1, disposedModels: 1 });

    clearVerifierCaches(caches);
    expect(caches.stats()).toEqual({ ...EMPTY, disposedModels: 2 });
    // Everything is made afresh afterwards.
    expect((await verify({ handler: 'sys_set_runnable', spec, implSource: unsafe }, env)).status).toBe('refuted');
    expect(caches.stats()).toMatchObject({ programs: 1, implProofs: 1, heldModels: 1 });
  }, 180_000);

  it("hold the lemma checks' starts, statement digests, oracle proofs and per-engine checks, and clear them", async () => {
    const engine = await nodeEngine();
    const caches = new VerifierCaches();
    const env = { engine, caches };
    // Another worker's caches, which must see none of it.
    const other = new VerifierCaches();
    // The committed proof: the handler's start and the statement digest are kept, no proof is made.
    expect(await proveSpecLemmas('sys_set_runnable', spec, env)).toMatchObject({ status: 'proved', reused: { proof: 'stored' } });
    expect(caches.stats()).toEqual({ ...EMPTY, declarativeBases: 1, statements: 1 });
    // A lemma set nothing is committed for: the oracle's proof is made once, then taken from the caches.
    const tlb = { only: ['tlb_ok'] };
    expect(await proveSpecLemmas('sys_set_runnable', spec, env, tlb)).toMatchObject({ status: 'proved', reused: { proof: 'process' } });
    expect(caches.stats()).toMatchObject({ declarativeBases: 1, statements: 2, oracleProofs: 1 });
    // Making it proved each fact of that statement, and the caches know them now.
    const facts = caches.stats().factProofs;
    expect(facts).toBeGreaterThan(0);
    expect(await proveSpecLemmas('sys_set_runnable', `${spec}\n# again`, env, tlb)).toMatchObject({ reused: { proof: 'process' } });
    let made = false;
    await memoisedProof(caches, oracleProofKey(caches, 'sys_set_runnable', ['tlb_ok'])!, async () => ((made = true), undefined));
    expect(made).toBe(false);
    // The handler-independent checks, once per engine (a 1 ms budget: what is kept, not what is proved).
    const corollaries = await proveCorollaries(env, { timeoutMs: 1 });
    const initial = await proveInitial(env, { timeoutMs: 1 });
    expect((await proveCorollaries(env)) === corollaries && (await proveInitial(env)) === initial).toBe(true);
    expect(caches.stats()).toEqual({ ...EMPTY, declarativeBases: 1, statements: 2, oracleProofs: 1, factProofs: facts, engineChecks: 2 });
    // None of it went to another cache object.
    expect(other.stats()).toEqual(EMPTY);

    clearVerifierCaches(caches);
    expect(caches.stats()).toEqual(EMPTY);
    expect((await proveCorollaries(env, { timeoutMs: 1 })) === corollaries).toBe(false);
    expect(await proveSpecLemmas('sys_set_runnable', spec, env, tlb)).toMatchObject({ status: 'proved', reused: { proof: 'process' } });
    expect(caches.stats()).toEqual({ ...EMPTY, declarativeBases: 1, statements: 1, oracleProofs: 1, factProofs: facts, engineChecks: 1 });
  }, 180_000);

  it("keep the lemma checks' state within its bounds", async () => {
    const engine = await nodeEngine();
    const caches = new VerifierCaches({ declarativeBases: 1, statements: 1, oracleProofs: 1, engines: 1 });
    for (const h of ['sys_set_runnable', 'sys_reclaim_page']) {
      expect(await proveSpecLemmas(h, oracleSpec(h)!, { engine, caches })).toMatchObject({ status: 'proved', reused: { proof: 'stored' } });
    }
    expect(caches.stats()).toMatchObject({ declarativeBases: 1, statements: 1, oracleProofs: 0 });
    // Only proofs are kept; past the bound the oldest goes.
    await memoisedProof(caches, 'not proved', async () => undefined);
    expect(caches.stats().oracleProofs).toBe(0);
    const a = await memoisedProof(caches, 'a', async () => ({ key: 'a', ms: 1 }));
    await memoisedProof(caches, 'b', async () => ({ key: 'b', ms: 1 }));
    expect(caches.stats().oracleProofs).toBe(1);
    expect((await memoisedProof(caches, 'a', async () => ({ key: 'a', ms: 2 }))) === a).toBe(false);
    // A second engine (another Z3 context) takes the only per-engine slot of its check.
    const other = createEngine(await nodeZ3());
    const first = await proveInitial({ engine, caches }, { timeoutMs: 1 });
    await proveInitial({ engine: other, caches }, { timeoutMs: 1 });
    expect(caches.stats().engineChecks).toBe(1);
    expect((await proveInitial({ engine, caches }, { timeoutMs: 1 })) === first).toBe(false);
  }, 180_000);
});
