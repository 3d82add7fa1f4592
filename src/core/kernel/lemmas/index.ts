/**
 * The declarative lemmas of hv6 (docs/hv6-model.md §5.5) as data: each is a list of
 * quantified facts over a state (and, for the TLB lemmas, the old state).
 * The checker (`verify/step-lemmas.ts`) assumes a lemma on a handler's pre-state
 * and proves it on the post-state; the corollaries follow from a lemma in any
 * state.
 */
import type { Quantified } from '../../smt/quantified.ts';
import { findHandler } from '../handlers.ts';
import type { AbstractState } from '../state.ts';
import { iommuPgwalk, pgwalk } from './corollaries.ts';
import {
  filesRefcnt,
  nrChildrenRefcnt,
  nrDevsRefcnt,
  nrDmapagesRefcnt,
  nrFdsRefcnt,
  nrIntremapsRefcnt,
  nrPagesRefcnt,
  nrPortsRefcnt,
  nrVectorsRefcnt,
} from './counts.ts';
import { iommuIsolation, isolation } from './isolation.ts';
import { iommuTlbOk, tlbOk } from './tlb.ts';

export interface Lemma {
  readonly name: string;
  /** One-line English gloss. */
  readonly gloss: string;
  /**
   * The lemma's facts over `s`. `old` is the state before the step (only the
   * TLB lemmas read it); `handler` selects handler-specific extras.
   */
  facts(s: AbstractState, old?: AbstractState, handler?: string): Quantified[];
  /** Included in other lemmas; checked on its own only when asked for. */
  readonly reportOnly?: boolean;
  /** The lemmas whose facts this one includes (for `handler`). */
  includes?(handler?: string): string[];
}

const isClone = (handler?: string) => handler !== undefined && findHandler(handler)?.name === 'clone_proc';

export const LEMMAS: readonly Lemma[] = [
  {
    name: 'isolation',
    gloss: "x86 page tables of live processes only reach their owner's memory; nr_pages is exact",
    facts: (s) => isolation(s),
    includes: () => ['nr_pages_refcnt'],
  },
  {
    name: 'iommu_isolation',
    gloss: "IOMMU page tables only reach their owner's DMA pages; nr_pages and nr_devs are exact",
    facts: (s) => iommuIsolation(s),
    includes: () => ['nr_pages_refcnt', 'nr_devs_refcnt'],
  },
  { name: 'nr_children_refcnt', gloss: 'nr_children counts the processes whose parent a process is', facts: (s) => nrChildrenRefcnt(s) },
  { name: 'nr_fds_refcnt', gloss: 'nr_fds counts the fd slots holding a valid file', facts: (s) => nrFdsRefcnt(s) },
  { name: 'nr_dmapages_refcnt', gloss: 'nr_dmapages counts the DMA pages a process owns', facts: (s) => nrDmapagesRefcnt(s) },
  { name: 'nr_ports_refcnt', gloss: 'nr_ports counts the I/O ports a process owns', facts: (s) => nrPortsRefcnt(s) },
  { name: 'nr_vectors_refcnt', gloss: 'nr_vectors counts the interrupt vectors a process owns', facts: (s) => nrVectorsRefcnt(s) },
  { name: 'nr_intremaps_refcnt', gloss: 'nr_intremaps counts the active remapping entries of a process', facts: (s) => nrIntremapsRefcnt(s) },
  {
    name: 'files_refcnt',
    gloss: "a file's refcnt counts the fd slots holding it (with nr_fds for clone_proc)",
    facts: (s, _old, handler) => [...(isClone(handler) ? nrFdsRefcnt(s) : []), ...filesRefcnt(s)],
    includes: (handler) => (isClone(handler) ? ['nr_fds_refcnt'] : []),
  },
  { name: 'tlb_ok', gloss: "changing an x86 page-table entry flushes the owner's TLB", facts: (s, old) => tlbOk(s, old) },
  { name: 'iommu_tlb_ok', gloss: 'changing an IOMMU page-table entry flushes the IOTLB', facts: (s, old) => iommuTlbOk(s, old) },
  { name: 'nr_pages_refcnt', gloss: 'nr_pages counts the pages a process owns', facts: (s) => nrPagesRefcnt(s), reportOnly: true },
  { name: 'nr_devs_refcnt', gloss: 'nr_devs counts the devices a process owns', facts: (s) => nrDevsRefcnt(s), reportOnly: true },
];

/** The lemmas checked for every handler by default (upstream's per-handler lemma tests). */
export const CHECKED_LEMMAS: readonly string[] = LEMMAS.filter((l) => !l.reportOnly).map((l) => l.name);

export function findLemma(name: string): Lemma | undefined {
  return LEMMAS.find((l) => l.name === name);
}

export interface Corollary {
  readonly name: string;
  readonly gloss: string;
  /** The lemma it follows from (with the spec invariants). */
  readonly lemma: string;
  facts(s: AbstractState): Quantified[];
}

export const COROLLARIES: readonly Corollary[] = [
  { name: 'pgwalk', gloss: 'a present walk of a live process ends in its own page, a FRAME if writable', lemma: 'isolation', facts: pgwalk },
  { name: 'iommu_pgwalk', gloss: "a present IOMMU walk ends in one of the device owner's IOMMU_FRAME DMA pages", lemma: 'iommu_isolation', facts: iommuPgwalk },
];

export { bootWitness } from './initial.ts';
