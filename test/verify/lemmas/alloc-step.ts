/**
 * A hand-built allocation step (the shape of sys_alloc_pdpt .. sys_alloc_frame):
 * page `to` becomes a `toType` page of `pid`, hooked into entry `index` of
 * table `frm`, with optional mistakes to show which lemma catches them.
 */
import * as o from '../../../src/core/smt/ops.ts';
import { type Term, variable } from '../../../src/core/smt/term.ts';
import { ENUMS, PGTYPE, PTE } from '../../../src/core/kernel/constants.ts';
import { isPidValid, isPnValid } from '../../../src/core/kernel/equiv.ts';
import type { AbstractState } from '../../../src/core/kernel/state.ts';
import { Step, u64 } from './steps.ts';

const PT = ENUMS.page_type;
const PS = ENUMS.proc_state;

export interface AllocMistakes {
  /** Do not record the shadow kind of the new entry. */
  readonly forgetShadowType?: boolean;
  /** Do not set the reverse pointers of the new page. */
  readonly forgetReverse?: boolean;
  /** Count the wrong page in nr_pages. */
  readonly countWrongPage?: boolean;
  /** Do not flush the TLB. */
  readonly noFlush?: boolean;
}

export function allocStep(pre: AbstractState, fromType: bigint, toType: bigint, mistakes: AllocMistakes = {}) {
  const pid = variable('arg.pid', 64);
  const frm = variable('arg.frm', 64);
  const index = variable('arg.index', 64);
  const to = variable('arg.to', 64);
  const perm = variable('arg.perm', 64);
  const s0 = new Step(pre);
  const cur = s0.read('current');
  const cond = o.and(
    isPnValid(to),
    o.eq(s0.read('pages.type', to), u64(PT.PAGE_TYPE_FREE)),
    isPidValid(pid),
    o.or(o.eq(pid, cur), o.and(o.eq(s0.read('procs.ppid', pid), cur), o.eq(s0.read('procs.state', pid), u64(PS.PROC_EMBRYO)))),
    isPnValid(frm),
    o.eq(s0.read('pages.owner', frm), pid),
    o.eq(s0.read('pages.type', frm), u64(fromType)),
    o.ult(index, u64(512)),
    o.eq(o.bvand(perm, u64(~PTE.PTE_PERM_MASK & 0xffffffffffffffffn)), u64(0)),
    o.not(o.eq(o.bvand(perm, u64(PTE.PTE_P)), u64(0))),
    o.eq(o.bvand(s0.read('pages.data', frm, index), u64(PTE.PTE_P)), u64(0)),
  );
  const entry = o.bvor(o.shl(o.add(o.udiv(s0.read('pages_ptr_to_int'), u64(4096)), to), u64(12)), perm);
  let s = s0
    .set('pages.owner', [to], pid)
    .set('pages.type', [to], u64(toType))
    .set('pages.data', [frm, index], entry)
    .set('pages.data', [to], u64(0))
    .set('pages.pgtable_pn', [frm, index], to)
    .set('pages.pgtable_perm', [frm, index], perm);
  if (!mistakes.forgetShadowType) s = s.set('pages.pgtable_type', [frm, index], u64(PGTYPE.PGTYPE_PAGE));
  if (!mistakes.forgetReverse) s = s.set('pages.pgtable_reverse_pn', [to], frm).set('pages.pgtable_reverse_idx', [to], index);
  s = s
    .set('pages.pgtable_pn', [to], u64(0))
    .set('pages.pgtable_perm', [to], u64(0))
    .set('pages.pgtable_type', [to], u64(PGTYPE.PGTYPE_NONE))
    .inc('procs.nr_pages', pid, [mistakes.countWrongPage ? frm : to]);
  if (!mistakes.noFlush) s = s.set('procs.tlbinv', [pid], o.TRUE);
  return { cond, post: s.commit(cond, pre), args: { pid, frm, index, to, perm } as Record<string, Term> };
}
