/**
 * The spec invariants (docs/hv6-model.md §5.4): facts about the abstract state alone
 * that every handler's spec may assume and must preserve. The declarative
 * checks assume them on the pre-state next to each lemma.
 */
import * as o from '../smt/ops.ts';
import type { Term } from '../smt/term.ts';
import type { Quantified } from '../smt/quantified.ts';
import { NDMAPAGE, NPAGES, NPCIDEV, PCI_START } from './constants.ts';
import {
  D,
  PS,
  PT,
  fact,
  ground,
  isFdValid,
  isFnValid,
  isPidValid,
  isPnValid,
  isStatusLive,
  onPid,
  onPn,
  pageOf,
  rd,
  u64,
} from './lemmas/helpers.ts';
import type { AbstractState } from './state.ts';

/** The memory regions, in address order, with the size each must leave free above it. */
const REGIONS: readonly { ptr: string; size: number; gap: number }[] = [
  // `gap` is what the next region must start beyond; for devices it is NPCIDEV,
  // not NPAGES_DEVICES (upstream's choice, kept).
  { ptr: 'pages_ptr_to_int', size: NPAGES.NPAGES_PAGES, gap: NPAGES.NPAGES_PAGES },
  { ptr: 'proc_table_ptr_to_int', size: NPAGES.NPAGES_PROC_TABLE, gap: NPAGES.NPAGES_PROC_TABLE },
  { ptr: 'page_desc_table_ptr_to_int', size: NPAGES.NPAGES_PAGE_DESC_TABLE, gap: NPAGES.NPAGES_PAGE_DESC_TABLE },
  { ptr: 'file_table_ptr_to_int', size: NPAGES.NPAGES_FILE_TABLE, gap: NPAGES.NPAGES_FILE_TABLE },
  { ptr: 'devices_ptr_to_int', size: NPAGES.NPAGES_DEVICES, gap: NPCIDEV },
  { ptr: 'dmapages_ptr_to_int', size: NDMAPAGE, gap: NDMAPAGE },
];

const high24Zero = (x: Term): Term => o.eq(o.extract(63, 40, x), o.extract(63, 40, u64(0)));

/** The spec invariants over `s`, one quantified fact per conjunct. */
export function specInvariants(s: AbstractState): Quantified[] {
  const pidT = onPid(s);
  const pnT = onPn(s);
  const st = (p: Term) => rd(s, 'procs.state', p);
  const owner = (pn: Term) => rd(s, 'pages.owner', pn);
  const type = (pn: Term) => rd(s, 'pages.type', pn);
  const ownedAs = (pn: Term, p: Term, t: bigint) => o.and(o.eq(owner(pn), p), o.eq(type(pn), u64(t)));
  const root = (p: Term) => rd(s, 'procs.page_table_root', p);
  const hvm = (p: Term) => rd(s, 'procs.hvm', p);
  const stack = (p: Term) => rd(s, 'procs.stack', p);

  const layout = REGIONS.map((r, i) => {
    const base = pageOf(rd(s, r.ptr));
    const next = i + 1 < REGIONS.length ? pageOf(rd(s, REGIONS[i + 1].ptr)) : pageOf(u64(PCI_START));
    return ground(
      `layout_${r.ptr.replace('_ptr_to_int', '')}`,
      `the ${r.ptr.replace('_ptr_to_int', '')} region's page numbers fit in 40 bits and end below the next region`,
      () => o.and(high24Zero(base), high24Zero(o.add(base, u64(r.size))), o.ult(o.add(base, u64(r.gap)), next)),
    );
  });

  return [
    fact('proc_pages_valid', 'every process slot names valid root, hvm and stack pages', D.pid, pidT, ([p]) =>
      o.implies(isPidValid(p), o.and(isPnValid(root(p)), isPnValid(hvm(p)), isPnValid(stack(p))))),
    fact('proc_pages_owned', 'a live process owns its root, hvm and stack pages', D.pid, pidT, ([p]) =>
      o.implies(
        o.and(isPidValid(p), isStatusLive(st(p))),
        o.and(o.eq(owner(root(p)), p), o.eq(owner(hvm(p)), p), o.eq(owner(stack(p)), p)),
      )),
    fact('proc_pages_typed', 'a live process has a PML4 root and PROC_DATA hvm and stack pages', D.pid, pidT, ([p]) =>
      o.implies(
        o.and(isPidValid(p), isStatusLive(st(p))),
        o.and(
          o.eq(type(root(p)), u64(PT.PAGE_TYPE_X86_PML4)),
          o.eq(type(hvm(p)), u64(PT.PAGE_TYPE_PROC_DATA)),
          o.eq(type(stack(p)), u64(PT.PAGE_TYPE_PROC_DATA)),
        ),
      )),
    fact('sleeping_ipc_page', 'a sleeping process owns its IPC page, a valid FRAME', D.pid, pidT, ([p]) => {
      const pn = rd(s, 'procs.ipc_page', p);
      return o.implies(
        o.and(isPidValid(p), o.eq(st(p), u64(PS.PROC_SLEEPING))),
        o.and(isPnValid(pn), ownedAs(pn, p, PT.PAGE_TYPE_FRAME)),
      );
    }),
    fact('io_bitmap_owned', 'a non-zombie process using an I/O bitmap owns both valid PROC_DATA bitmap pages', D.pid, pidT, ([p]) => {
      const a = rd(s, 'procs.io_bitmap_a', p);
      const b = rd(s, 'procs.io_bitmap_b', p);
      return o.implies(
        o.and(isPidValid(p), rd(s, 'procs.use_io_bitmap', p), o.not(o.eq(st(p), u64(PS.PROC_ZOMBIE)))),
        o.and(isPnValid(a), isPnValid(b), ownedAs(a, p, PT.PAGE_TYPE_PROC_DATA), ownedAs(b, p, PT.PAGE_TYPE_PROC_DATA)),
      );
    }),
    fact('page_owner_iff_used', 'a page has a valid owner exactly when it is not FREE', D.pn, pnT, ([pn]) =>
      o.implies(isPnValid(pn), o.eq(isPidValid(owner(pn)), o.not(o.eq(type(pn), u64(PT.PAGE_TYPE_FREE)))))),
    fact('free_page_unowned', 'a FREE page has no valid owner (the one-way copy of the above)', D.pn, pnT, ([pn]) =>
      o.implies(o.and(isPnValid(pn), o.eq(type(pn), u64(PT.PAGE_TYPE_FREE))), o.not(isPidValid(owner(pn))))),
    fact('sleeping_ipc_fd_empty', 'a sleeping process receives into an invalid fd or an fd holding no file', D.pid, pidT, ([p]) => {
      const fd = rd(s, 'procs.ipc_fd', p);
      return o.implies(
        o.and(isPidValid(p), o.eq(st(p), u64(PS.PROC_SLEEPING))),
        o.or(o.not(isFdValid(fd)), o.not(isFnValid(rd(s, 'procs.ofile', p, fd)))),
      );
    }),
    ...layout,
    ground('current_valid', 'the current pid is valid', () => isPidValid(rd(s, 'current'))),
    ground('current_running', 'the current process is RUNNING', () => o.eq(st(rd(s, 'current')), u64(PS.PROC_RUNNING))),
    fact('running_is_current', 'a RUNNING process is the current one', D.pid, pidT, ([p]) =>
      o.implies(o.and(isPidValid(p), o.eq(st(p), u64(PS.PROC_RUNNING))), o.eq(p, rd(s, 'current')))),
  ];
}
