import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../../src/z3/node.ts';
import { ENUMS } from '../../../src/core/kernel/constants.ts';
import { freshState } from '../../../src/core/kernel/state.ts';
import { proveStepLemmas } from '../../../src/core/verify/step-lemmas.ts';
import { type AllocMistakes, allocStep } from './alloc-step.ts';

const PT = ENUMS.page_type;
const T = 600_000;

/** Allocates a PDPT below a PML4 (sys_alloc_pdpt's shape), with optional mistakes. */
async function check(mistakes: AllocMistakes, only: string[]) {
  const pre = freshState();
  const { cond, post } = allocStep(pre, PT.PAGE_TYPE_X86_PML4, PT.PAGE_TYPE_X86_PDPT, mistakes);
  const r = await proveStepLemmas({ pre, cond, post, handler: 'sys_alloc_pdpt' }, await nodeEngine(), { only, timeoutMs: 120_000 });
  return Object.fromEntries(r.lemmas.map((l) => [l.name, l]));
}

describe('isolation on a hand-built page-table allocation', () => {
  it('the correct shadow update keeps isolation, and flushing keeps tlb_ok', async () => {
    const r = await check({}, ['isolation', 'tlb_ok']);
    expect(r.isolation).toMatchObject({ status: 'proved' });
    expect(r.tlb_ok).toMatchObject({ status: 'proved' });
  }, T);

  it('forgetting the shadow kind of the new entry breaks isolation', async () => {
    const r = await check({ forgetShadowType: true }, ['isolation']);
    expect(r.isolation.status).toBe('failed');
    expect(r.isolation.failedParts).toContain('isolation.shadow_kind');
    expect(r.isolation.failedParts).not.toContain('nr_pages.slots_match_ownership');
  }, T);

  it('forgetting the reverse pointers of the new table breaks the page-entry part only', async () => {
    const r = await check({ forgetReverse: true }, ['isolation']);
    expect(r.isolation.status).toBe('failed');
    expect(r.isolation.failedParts).toEqual(['isolation.page_entry']);
  }, T);

  it('not flushing the TLB breaks tlb_ok', async () => {
    const r = await check({ noFlush: true }, ['tlb_ok', 'iommu_tlb_ok']);
    expect(r.tlb_ok).toMatchObject({ status: 'failed', failedParts: ['tlb_ok.flushed'] });
    // No IOMMU table changes here.
    expect(r.iommu_tlb_ok).toMatchObject({ status: 'proved' });
  }, T);
});
