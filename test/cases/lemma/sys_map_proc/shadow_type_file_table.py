# expect: verified
# expect: lemma-fail isolation
# ghost mistake: the shadow names the wrong kernel table
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid


def sys_map_proc(old, pid, frm, index, n, perm):
    cur = old.current

    cond = z3.And(
        # n is a page of the process table
        z3.ULT(n, dt.NPAGES_PROC_TABLE),
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the target is the caller, or an embryo child of the caller
        z3.Or(pid == cur,
              z3.And(old.procs[pid].ppid == cur,
                     old.procs[pid].state == dt.proc_state.PROC_EMBRYO)),
        # the page-table page is a RAM page number
        is_pn_valid(frm),
        # of the last level
        old.pages[frm].type == dt.page_type.PAGE_TYPE_X86_PT,
        # owned by the target process
        old.pages[frm].owner == pid,
        # the entry index is inside the table
        z3.ULT(index, 512),
        # perm only uses bits a user may set
        perm & (dt.MAX_INT64 ^ dt.PTE_PERM_MASK) == z3.BitVecVal(0, dt.pte_t),
        # perm makes the entry present
        perm & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        # kernel tables are only ever mapped read-only
        perm & dt.PTE_W == z3.BitVecVal(0, dt.pte_t),
        # the entry is not present yet
        old.pages[frm].data(index) & dt.PTE_P == z3.BitVecVal(0, dt.pte_t),
    )

    new = old.copy()

    new.pages[frm].data[index] = (
        (z3.UDiv(new.proc_table_ptr_to_int, util.i64(dt.PAGE_SIZE)) + n) << dt.PTE_PFN_SHIFT) | perm
    new.pages[frm].pgtable_pn[index] = n
    new.pages[frm].pgtable_perm[index] = perm
    new.pages[frm].pgtable_type[index] = dt.PGTYPE_FILE_TABLE

    new.flush_tlb(pid)

    return cond, util.If(cond, new, old)
