/**
 * The verifier's cache object (src/core/verify/caches.ts), observed through
 * its own API: each cache stays within its bound, an implementation proof
 * that holds a Z3 model disposes it when evicted or cleared, and
 * `clearVerifierCaches` empties everything. Small bounds, so a few cheap
 * verifications reach them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/cli/z3-node.ts';
import { KERNEL, oracleSpec } from '../../src/core/kernel/content.ts';
import { VerifierCaches, clearVerifierCaches, loadProgram, verify } from '../../src/core/verify/index.ts';

const unsafe = readFileSync('test/cases/mutants/sys_set_runnable/unchecked-pid.c', 'utf8');
const spec = oracleSpec('sys_set_runnable')!;

describe('the verifier caches', () => {
  it('keep at most `programs` parsed programs, dropping the oldest', () => {
    const caches = new VerifierCaches({ programs: 2 });
    const first = loadProgram('', KERNEL, caches);
    // (Identity compared as booleans: a failed toBe deep-compares two whole programs.)
    expect(loadProgram('', KERNEL, caches) === first).toBe(true);
    loadProgram('/* a */', KERNEL, caches);
    loadProgram('/* b */', KERNEL, caches);
    expect(caches.stats().programs).toBe(2);
    // The first was evicted: it is parsed again.
    expect(loadProgram('', KERNEL, caches) === first).toBe(false);
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
    expect(caches.stats()).toEqual({ programs: 0, implRuns: 0, implProofs: 0, heldModels: 0, disposedModels: 2, specs: 0 });
    // Everything is made afresh afterwards.
    expect((await verify({ handler: 'sys_set_runnable', spec, implSource: unsafe }, env)).status).toBe('refuted');
    expect(caches.stats()).toMatchObject({ programs: 1, implProofs: 1, heldModels: 1 });
  }, 180_000);
});
