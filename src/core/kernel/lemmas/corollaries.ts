/**
 * The page-walk corollaries (docs/hv6-model.md §5.5): what isolation buys a process or
 * a device. Each is proved from its lemma and the spec invariants, for any
 * state, and must also hold in some initial state.
 */
import * as o from '../../smt/ops.ts';
import type { Quantified } from '../../smt/quantified.ts';
import type { AbstractState } from '../state.ts';
import { D, PT, fact, isPidValid, isPnValid, isStatusLive, isVaValid, pageWalk, rd, u64 } from './helpers.ts';

/** pgwalk: a present walk of a live process's tables ends in its own page, a FRAME if writable. */
export function pgwalk(s: AbstractState): Quantified[] {
  return [
    fact('pgwalk', "a present 4-level walk from a live process's root ends in a page it owns, and a writable one in a FRAME", D.pidVa, [], ([pid, ...va]) => {
      const w = pageWalk(s, rd(s, 'procs.page_table_root', pid), va);
      return o.implies(
        o.and(isPidValid(pid), isStatusLive(rd(s, 'procs.state', pid)), isVaValid(va)),
        o.implies(
          w.present,
          o.and(
            o.eq(rd(s, 'pages.owner', w.frame), pid),
            o.implies(w.writable, o.eq(rd(s, 'pages.type', w.frame), u64(PT.PAGE_TYPE_FRAME))),
          ),
        ),
      );
    }),
  ];
}

/** iommu_pgwalk: a present walk of a device's IOMMU tables ends in a DMA page of the device's owner. */
export function iommuPgwalk(s: AbstractState): Quantified[] {
  return [
    fact('iommu_pgwalk', "a present 4-level walk from a device's IOMMU root ends in an IOMMU_FRAME DMA page of the device's owner", D.devidVa, [], ([devid, ...va]) => {
      const root = rd(s, 'pci.page_table_root', devid);
      const w = pageWalk(s, root, va);
      return o.implies(
        o.and(isPnValid(root), isVaValid(va)),
        o.implies(
          w.present,
          o.and(
            o.eq(rd(s, 'dmapages.owner', w.frame), rd(s, 'pci.owner', devid)),
            o.eq(rd(s, 'dmapages.type', w.frame), u64(PT.PAGE_TYPE_IOMMU_FRAME)),
          ),
        ),
      );
    }),
  ];
}
