import { describe, expect, it } from 'vitest';
import { nodeEngine, nodeEnv } from '../../../src/z3/node.ts';
import { specInvariants } from '../../../src/core/kernel/spec-invariants.ts';
import { COROLLARIES, LEMMAS, bootWitness, findLemma } from '../../../src/core/kernel/lemmas/index.ts';
import type { RefcntValue } from '../../../src/core/kernel/state.ts';
import { variable } from '../../../src/core/smt/term.ts';
import { proveCorollaries, proveInitial } from '../../../src/core/verify/engine-proofs.ts';
import { proveFrom } from '../../../src/core/verify/fact-prover.ts';
import { Step, u64 } from './steps.ts';

const T = 600_000;

describe('initial state', () => {
  it("the boot witness has initial()'s ghost permutations: slot i holds object i + offset", () => {
    const o = variable('o', 64);
    const at = (path: string, slot: number) => (bootWitness().get(path) as RefcntValue).perm.apply([o, u64(slot)]).value;
    // nr_children starts at pid 1 (offset 1); nr_pages at page 0.
    expect([at('procs.nr_children', 0), at('procs.nr_children', 6)]).toEqual([1n, 7n]);
    expect([at('procs.nr_pages', 0), at('procs.nr_pages', 6)]).toEqual([0n, 6n]);
  });

  it('initial() ∧ spec_invariants ∧ each lemma and corollary is satisfiable (the boot witness satisfies them)', async () => {
    const r = await proveInitial(await nodeEnv(), { timeoutMs: 120_000 });
    expect(r.map((x) => x.name)).toEqual(['spec_invariants', ...LEMMAS.map((l) => l.name), ...COROLLARIES.map((c) => c.name)]);
    for (const x of r) expect(x, x.name).toMatchObject({ status: 'proved' });
  }, T);

  it('a witness whose count is off fails the count lemma', async () => {
    const broken = new Step(bootWitness()).set('procs.nr_pages', [u64(1)], u64(2)).s;
    const r = await proveFrom('nr_pages_refcnt', findLemma('nr_pages_refcnt')!.facts(broken), [], await nodeEngine());
    expect(r.status).toBe('failed');
    expect(r.failedParts).toContain('nr_pages.slots_match_ownership');
    expect(await proveFrom('spec_invariants', specInvariants(broken), [], await nodeEngine())).toMatchObject({ status: 'proved' });
  }, T);
});

describe('page-walk corollaries', () => {
  it('pgwalk follows from isolation and iommu_pgwalk from iommu_isolation', async () => {
    const r = await proveCorollaries(await nodeEnv(), { timeoutMs: 120_000 });
    expect(r).toMatchObject([
      { name: 'pgwalk', status: 'proved' },
      { name: 'iommu_pgwalk', status: 'proved' },
    ]);
  }, T);

  it('neither follows from the spec invariants alone', async () => {
    const { freshState } = await import('../../../src/core/kernel/state.ts');
    for (const c of COROLLARIES) {
      const s = freshState(`bare.${c.name}.`);
      const r = await proveFrom(c.name, c.facts(s), specInvariants(s), await nodeEngine(), { timeoutMs: 120_000 });
      expect(r, c.name).toMatchObject({ status: 'failed', failedParts: [c.name] });
    }
  }, T);
});
