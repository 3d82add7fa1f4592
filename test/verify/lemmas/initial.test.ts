import { describe, expect, it } from 'vitest';
import { nodeEngine, nodeEnv } from '../../../src/cli/z3-node.ts';
import { specInvariants } from '../../../src/core/kernel/spec-invariants.ts';
import { COROLLARIES, LEMMAS, bootWitness, findLemma, initialState } from '../../../src/core/kernel/lemmas/index.ts';
import type { RefcntValue } from '../../../src/core/kernel/state.ts';
import { variable } from '../../../src/core/smt/term.ts';
import { checkCorollaries, checkInitial } from '../../../src/core/verify/engine-checks.ts';
import { proveFrom } from '../../../src/core/verify/fact-prover.ts';
import { Step, u64 } from './steps.ts';

const T = 600_000;

describe('initial state', () => {
  it('the boot witness is an instance of initial(): same ghost permutations', () => {
    const o = variable('o', 64);
    const i = variable('i', 64);
    for (const path of ['procs.nr_children', 'procs.nr_pages', 'procs.nr_fds']) {
      const w = bootWitness().get(path) as RefcntValue;
      const init = initialState().get(path) as RefcntValue;
      expect(w.perm.apply([o, i])).toBe(init.perm.apply([o, i]));
    }
    // nr_children starts at pid 1: slot 0 holds pid 1.
    const nc = initialState().get('procs.nr_children') as RefcntValue;
    expect(nc.perm.apply([o, u64(0)]).value).toBe(1n);
  });

  it('initial() ∧ spec_invariants ∧ each lemma and corollary is satisfiable (the boot witness satisfies them)', async () => {
    const r = await checkInitial(await nodeEnv(), { timeoutMs: 120_000 });
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
    const r = await checkCorollaries(await nodeEnv(), { timeoutMs: 120_000 });
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
