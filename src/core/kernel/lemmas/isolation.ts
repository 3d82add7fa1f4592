/**
 * Memory isolation (docs/hv6-model.md §5.5, `isolation` and `iommu_isolation`): every
 * present entry of a page-table page that belongs to a live process agrees
 * with its ghost shadow, and the shadow only reaches memory that process may
 * use. The upstream lemma is one fact with a large conjunction; here each
 * conjunct is its own fact under the same guard (equivalent, since a
 * universal distributes over a conjunction), so a failure names its part.
 */
import * as o from '../../smt/ops.ts';
import type { Term } from '../../smt/term.ts';
import type { Quantified } from '../../smt/quantified.ts';
import { NDMAPAGE, NPAGES, NPCIPAGE, PGTYPE, PTE } from '../constants.ts';
import type { AbstractState } from '../state.ts';
import { nrDevsRefcnt, nrPagesRefcnt } from './counts.ts';
import {
  D,
  PT,
  fact,
  getIommuSubType,
  getSubType,
  hasBit,
  isDmapnValid,
  isIommuPageTableType,
  isPageTableType,
  isPidValid,
  isPnValid,
  isStatusLive,
  onFields,
  onPnIdx,
  pgentry2pfn,
  rd,
  u64,
} from './helpers.ts';

/** Reads of one page-table entry and its shadow. */
function entry(s: AbstractState, pn: Term, idx: Term) {
  const owner = rd(s, 'pages.owner', pn);
  return {
    owner,
    type: rd(s, 'pages.type', pn),
    data: rd(s, 'pages.data', pn, idx),
    spn: rd(s, 'pages.pgtable_pn', pn, idx),
    sperm: rd(s, 'pages.pgtable_perm', pn, idx),
    stype: rd(s, 'pages.pgtable_type', pn, idx),
    ownerState: rd(s, 'procs.state', owner),
  };
}

const readOnly = (perm: Term) => o.eq(o.bvand(perm, u64(PTE.PTE_W)), u64(0));

/** The x86 entry facts: under "present entry of a live process's table", each conjunct. */
function x86Entries(s: AbstractState): Quantified[] {
  const trig = onPnIdx(s);
  const guarded = (name: string, gloss: string, part: (e: ReturnType<typeof entry>, pn: Term, idx: Term) => Term): Quantified =>
    fact(`isolation.${name}`, gloss, D.pnIdx, trig, ([pn, idx]) => {
      const e = entry(s, pn, idx);
      const guard = o.and(
        isPnValid(pn),
        o.ult(idx, u64(512)),
        isPageTableType(e.type),
        hasBit(e.data, PTE.PTE_P),
        isStatusLive(e.ownerState),
        isPidValid(e.owner),
      );
      return o.implies(guard, part(e, pn, idx));
    });
  const isKind = (e: ReturnType<typeof entry>, k: bigint) => o.eq(e.stype, u64(k));
  const kernelTable = (name: string, kind: bigint, pages: number, what: string) =>
    guarded(name, `an entry mapping the ${what} sits in a PT, stays within its ${pages} pages and is read-only`, (e) =>
      o.implies(isKind(e, kind), o.and(o.eq(e.type, u64(PT.PAGE_TYPE_X86_PT)), o.ult(e.spn, u64(pages)), readOnly(e.sperm))));

  return [
    guarded('shadow_kind', 'a present entry has a shadow kind other than NONE', (e) => o.ult(e.stype, u64(PGTYPE.PGTYPE_NONE))),
    guarded('entry_matches_shadow', 'a present entry is the frame number its shadow names, with the shadow permissions', (e) =>
      o.eq(e.data, pgentry2pfn(s, e.spn, e.sperm, e.stype))),
    guarded('shadow_perm_bits', 'the shadow permissions have no bits in 62..12', (e) =>
      o.eq(o.extract(62, 12, e.sperm), o.extract(50, 0, u64(0)))),
    guarded('page_entry', 'a page entry reaches a valid page of the same owner: the next level (mapped only here) or, read-only, a PML4 from a PML4', (e, pn, idx) => {
      const t = e.spn;
      const next = o.and(
        o.eq(getSubType(e.type), rd(s, 'pages.type', t)),
        o.eq(rd(s, 'pages.pgtable_reverse_pn', t), pn),
        o.eq(rd(s, 'pages.pgtable_reverse_idx', t), idx),
      );
      const selfMap = o.and(
        o.eq(e.type, u64(PT.PAGE_TYPE_X86_PML4)),
        o.eq(rd(s, 'pages.type', t), u64(PT.PAGE_TYPE_X86_PML4)),
        readOnly(e.sperm),
      );
      return o.implies(isKind(e, PGTYPE.PGTYPE_PAGE), o.and(isPnValid(t), o.eq(rd(s, 'pages.owner', t), e.owner), o.or(next, selfMap)));
    }),
    kernelTable('proc_entry', PGTYPE.PGTYPE_PROC, NPAGES.NPAGES_PROC_TABLE, 'process table'),
    kernelTable('page_desc_entry', PGTYPE.PGTYPE_PAGE_DESC, NPAGES.NPAGES_PAGE_DESC_TABLE, 'page descriptor table'),
    kernelTable('file_table_entry', PGTYPE.PGTYPE_FILE_TABLE, NPAGES.NPAGES_FILE_TABLE, 'file table'),
    kernelTable('devices_entry', PGTYPE.PGTYPE_DEVICES, NPAGES.NPAGES_DEVICES, 'device table'),
    guarded('iommu_frame_entry', 'an entry mapping a DMA page sits in a PT and reaches an IOMMU_FRAME of the same owner', (e) =>
      o.implies(
        isKind(e, PGTYPE.PGTYPE_IOMMU_FRAME),
        o.and(
          o.eq(e.type, u64(PT.PAGE_TYPE_X86_PT)),
          o.ult(e.spn, u64(NDMAPAGE)),
          o.eq(rd(s, 'dmapages.type', e.spn), u64(PT.PAGE_TYPE_IOMMU_FRAME)),
          o.eq(rd(s, 'dmapages.owner', e.spn), e.owner),
        ),
      )),
    guarded('pcipage_entry', "an entry mapping a PCI page sits in a PT and reaches a page of a device of the table's owner", (e) =>
      o.implies(
        isKind(e, PGTYPE.PGTYPE_PCIPAGE),
        o.and(
          o.eq(e.type, u64(PT.PAGE_TYPE_X86_PT)),
          o.ult(e.spn, u64(NPCIPAGE)),
          o.eq(rd(s, 'pci.owner', rd(s, 'pcipages.owner', e.spn)), e.owner),
        ),
      )),
  ];
}

/** isolation: nr_pages is a correct count, and x86 page tables only reach their owner's memory. */
export function isolation(s: AbstractState): Quantified[] {
  return [...nrPagesRefcnt(s), ...x86Entries(s)];
}

/** iommu_isolation: nr_pages and nr_devs are correct counts, and IOMMU tables only reach their owner's DMA pages. */
export function iommuIsolation(s: AbstractState): Quantified[] {
  const trig = onPnIdx(s);
  const guarded = (name: string, gloss: string, part: (e: ReturnType<typeof entry>) => Term): Quantified =>
    fact(`iommu_isolation.${name}`, gloss, D.pnIdx, trig, ([pn, idx]) => {
      const e = entry(s, pn, idx);
      const guard = o.and(
        isPnValid(pn),
        o.ult(idx, u64(512)),
        isIommuPageTableType(e.type),
        hasBit(e.data, PTE.PTE_P),
        isPidValid(e.owner),
        // Devices write regardless of the process's state, as long as it has one.
        o.or(isStatusLive(e.ownerState), o.not(o.eq(rd(s, 'procs.nr_devs', e.owner), u64(0)))),
      );
      return o.implies(guard, part(e));
    });
  const root = (d: Term) => rd(s, 'pci.page_table_root', d);
  const devOwner = (d: Term) => rd(s, 'pci.owner', d);
  const address = (base: string, e: ReturnType<typeof entry>) =>
    o.eq(e.data, o.bvor(o.add(rd(s, base), o.mul(e.spn, u64(4096))), e.sperm));
  const isLeafTable = (e: ReturnType<typeof entry>) => o.eq(e.type, u64(PT.PAGE_TYPE_IOMMU_PT));

  return [
    ...nrPagesRefcnt(s),
    ...nrDevsRefcnt(s),
    fact('iommu_isolation.device_root', "a device with a valid IOMMU root has a valid owner, who owns that root, an IOMMU_PML4", D.devid, onFields(s, ['pci.owner', 'pci.page_table_root'], [0]), ([d]) =>
      o.implies(
        isPnValid(root(d)),
        o.and(
          isPidValid(devOwner(d)),
          o.eq(rd(s, 'pages.type', root(d)), u64(PT.PAGE_TYPE_IOMMU_PML4)),
          o.eq(rd(s, 'pages.owner', root(d)), devOwner(d)),
        ),
      )),
    guarded('table_entry', 'an entry above the last level holds the address of a valid page of the next IOMMU level with the same owner', (e) =>
      o.implies(
        o.not(isLeafTable(e)),
        o.and(
          address('pages_ptr_to_int', e),
          isPnValid(e.spn),
          o.eq(getIommuSubType(e.type), rd(s, 'pages.type', e.spn)),
          o.eq(rd(s, 'pages.owner', e.spn), e.owner),
        ),
      )),
    guarded('leaf_entry', 'a last-level entry holds the address of a valid IOMMU_FRAME DMA page with the same owner', (e) =>
      o.implies(
        isLeafTable(e),
        o.and(
          address('dmapages_ptr_to_int', e),
          isDmapnValid(e.spn),
          o.eq(rd(s, 'dmapages.type', e.spn), u64(PT.PAGE_TYPE_IOMMU_FRAME)),
          o.eq(rd(s, 'dmapages.owner', e.spn), e.owner),
        ),
      )),
  ];
}
