# expect: verified
# expect: lemma-fail isolation
# ghost mistake: the reverse index always says entry 0
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid


def alloc_page_table(old, pid, frm, index, to, perm, from_type, to_type):
    cur = old.current

    cond = z3.And(
        # the page to allocate is a RAM page number
        is_pn_valid(to),
        # and it is free
        old.pages[to].type == dt.page_type.PAGE_TYPE_FREE,
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the target is the caller, or an embryo child of the caller
        z3.Or(pid == cur,
              z3.And(old.procs[pid].ppid == cur,
                     old.procs[pid].state == dt.proc_state.PROC_EMBRYO)),
        # the parent table page is a RAM page number
        is_pn_valid(frm),
        # owned by the target process
        old.pages[frm].owner == pid,
        # and of the level just above the new page
        old.pages[frm].type == from_type,
        # the entry index is inside the table
        z3.ULT(index, 512),
        # perm only uses bits a user may set
        perm & (dt.MAX_INT64 ^ dt.PTE_PERM_MASK) == z3.BitVecVal(0, dt.pte_t),
        # perm makes the entry present
        perm & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        # the entry is not present yet
        old.pages[frm].data(index) & dt.PTE_P == z3.BitVecVal(0, dt.pte_t),
    )

    new = old.copy()

    new.pages[to].owner = pid
    new.pages[to].type = to_type

    # Point the parent entry at the new page.
    new.pages[frm].data[index] = (
        (z3.UDiv(new.pages_ptr_to_int, util.i64(dt.PAGE_SIZE)) + to) << dt.PTE_PFN_SHIFT) | perm
    new.pages[to].data = z3.BitVecVal(0, dt.uint64_t)

    # Shadow bookkeeping: the entry now refers to RAM page `to`, and `to`
    # remembers where it is referenced from; the new table has no entries.
    new.pages[frm].pgtable_pn[index] = to
    new.pages[to].pgtable_reverse_pn = frm
    new.pages[to].pgtable_reverse_idx = z3.BitVecVal(0, dt.pn_t)
    new.pages[frm].pgtable_perm[index] = perm
    new.pages[frm].pgtable_type[index] = dt.PGTYPE_PAGE
    new.pages[to].pgtable_pn = z3.BitVecVal(0, dt.uint64_t)
    new.pages[to].pgtable_perm = z3.BitVecVal(0, dt.uint64_t)
    new.pages[to].pgtable_type = dt.PGTYPE_NONE

    new.procs[pid].nr_pages[to] += 1

    new.flush_tlb(pid)

    return cond, util.If(cond, new, old)



def sys_alloc_frame(old, pid, frm, index, to, perm):
    # The new table level (FRAME) hangs below an entry of a X86_PT page.
    return alloc_page_table(old, pid, frm, index, to, perm,
                            dt.page_type.PAGE_TYPE_X86_PT,
                            dt.page_type.PAGE_TYPE_FRAME)
