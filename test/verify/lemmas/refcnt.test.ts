import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../../src/z3/node.ts';
import { ENUMS } from '../../../src/core/kernel/constants.ts';
import { freshState } from '../../../src/core/kernel/state.ts';
import type { LemmaResult } from '../../../src/core/verify/fact-prover.ts';
import { proveStepLemmas } from '../../../src/core/verify/step-lemmas.ts';
import { allocStep } from './alloc-step.ts';
import { closeStep, freeFrameStep } from './more-steps.ts';

const PT = ENUMS.page_type;
const T = 600_000;

async function lemma(name: string, step: { cond: import('../../../src/core/smt/term.ts').Term; post: import('../../../src/core/kernel/state.ts').AbstractState }, pre: import('../../../src/core/kernel/state.ts').AbstractState): Promise<LemmaResult> {
  const r = await proveStepLemmas({ pre, ...step, handler: 'hand-built' }, await nodeEngine(), { only: [name], timeoutMs: 120_000 });
  return r.lemmas[0];
}

describe('Refcnt check conditions on hand-built steps', () => {
  it('a correct += 1 (allocating a frame to pid) keeps every nr_pages condition', async () => {
    const pre = freshState();
    const r = await lemma('nr_pages_refcnt', allocStep(pre, PT.PAGE_TYPE_X86_PT, PT.PAGE_TYPE_FRAME), pre);
    expect(r).toMatchObject({ name: 'nr_pages_refcnt', status: 'proved' });
    expect(r.failedParts).toBeUndefined();
  }, T);

  it('a += 1 on the wrong object breaks "owned objects sit below the count", not the bijection', async () => {
    const pre = freshState();
    const r = await lemma('nr_pages_refcnt', allocStep(pre, PT.PAGE_TYPE_X86_PT, PT.PAGE_TYPE_FRAME, { countWrongPage: true }), pre);
    expect(r.status).toBe('failed');
    expect(r.failedParts).toContain('nr_pages.slots_match_ownership');
    expect(r.failedParts).not.toContain('nr_pages.inverse_slot');
    expect(r.failedParts).not.toContain('nr_pages.inverse_owned');
    expect(r.failedParts).not.toContain('nr_pages.slot_bound');
  }, T);

  it('a correct -= 1 (freeing a frame) keeps every nr_pages condition', async () => {
    const pre = freshState();
    expect(await lemma('nr_pages_refcnt', freeFrameStep(pre), pre)).toMatchObject({ status: 'proved' });
  }, T);

  it('a -= 1 on the wrong owner breaks the ownership conditions', async () => {
    const pre = freshState();
    const r = await lemma('nr_pages_refcnt', freeFrameStep(pre, { wrongOwner: true }), pre);
    expect(r.status).toBe('failed');
    expect(r.failedParts).toContain('nr_pages.slots_match_ownership');
    expect(r.failedParts).not.toContain('nr_pages.inverse_slot');
  }, T);

  it('Refcnt2: closing an fd keeps files_refcnt, and uncounting the wrong (pid, fd) pair breaks it', async () => {
    const pre = freshState();
    expect(await lemma('files_refcnt', closeStep(pre), pre)).toMatchObject({ status: 'proved' });
    const bad = await lemma('files_refcnt', closeStep(pre, { wrongFd: true }), pre);
    expect(bad.status).toBe('failed');
    expect(bad.failedParts).toContain('files.slots_match_ownership');
    expect(bad.failedParts).not.toContain('files.slot_holds_valid_pair');
  }, T);
});
