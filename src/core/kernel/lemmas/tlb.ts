/**
 * TLB flushing (docs/hv6-model.md §5.5, `tlb_ok` and `iommu_tlb_ok`): a handler that
 * changes an entry of a page-table page flushes the TLB of the page's owner
 * (x86) or the IOTLB (IOMMU). Both relate the new state to the old one; when
 * there is no old state, or the new state is the old state itself (a spec
 * that returns `old`), the lemma is literally true, as upstream.
 */
import * as o from '../../smt/ops.ts';
import type { Term } from '../../smt/term.ts';
import type { Quantified } from '../../smt/quantified.ts';
import type { AbstractState } from '../state.ts';
import { D, fact, isIommuPageTableType, isPageTableType, isPnValid, onPnIdx, rd, u64 } from './helpers.ts';

function changedTable(
  name: string,
  gloss: string,
  s: AbstractState,
  old: AbstractState | undefined,
  isTable: (t: Term) => Term,
  flushed: (old: AbstractState, pn: Term) => Term,
): Quantified[] {
  if (!old || s === old) return [];
  return [
    fact(name, gloss, D.pnIdx, onPnIdx(old), ([pn, idx]) =>
      o.implies(
        o.and(isPnValid(pn), o.ult(idx, u64(512)), isTable(rd(old, 'pages.type', pn))),
        o.implies(o.not(o.eq(rd(old, 'pages.data', pn, idx), rd(s, 'pages.data', pn, idx))), flushed(old, pn)),
      )),
  ];
}

/** tlb_ok: a changed x86 page-table entry implies the TLB of the page's old owner is flushed. */
export function tlbOk(s: AbstractState, old?: AbstractState): Quantified[] {
  return changedTable('tlb_ok.flushed', "a changed x86 page-table entry implies its owner's TLB is flushed", s, old, isPageTableType, (ol, pn) =>
    rd(s, 'procs.tlbinv', rd(ol, 'pages.owner', pn)));
}

/** iommu_tlb_ok: a changed IOMMU page-table entry implies the IOTLB is flushed. */
export function iommuTlbOk(s: AbstractState, old?: AbstractState): Quantified[] {
  return changedTable('iommu_tlb_ok.flushed', 'a changed IOMMU page-table entry implies the IOTLB is flushed', s, old, isIommuPageTableType, () =>
    rd(s, 'iotlbinv'));
}
