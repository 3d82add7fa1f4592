# expect: verified
# expect: lemma-fail isolation
# ghost mistake: the shadow claims the self-mapping is writable
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_map_pml4(old, pid, index, perm):
    cur = old.current
    root = old.procs[pid].page_table_root

    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the target is the caller, or an embryo child of the caller
        z3.Or(pid == cur,
              z3.And(old.procs[pid].ppid == cur,
                     old.procs[pid].state == dt.proc_state.PROC_EMBRYO)),
        # the entry index is inside the table
        z3.ULT(index, 512),
        # perm only uses bits a user may set
        perm & (dt.MAX_INT64 ^ dt.PTE_PERM_MASK) == z3.BitVecVal(0, dt.pte_t),
        # perm makes the entry present
        perm & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        # the self-mapping is read-only
        perm & dt.PTE_W == z3.BitVecVal(0, dt.pte_t),
        # the root's entry at index is not present yet
        old.pages[root].data(index) & dt.PTE_P == z3.BitVecVal(0, dt.pte_t),
    )

    new = old.copy()

    # The root table maps itself.
    new.pages[root].data[index] = (
        (z3.UDiv(new.pages_ptr_to_int, util.i64(dt.PAGE_SIZE)) + root) << dt.PTE_PFN_SHIFT) | perm
    new.pages[root].pgtable_pn[index] = root
    new.pages[root].pgtable_perm[index] = perm | dt.PTE_W
    new.pages[root].pgtable_type[index] = dt.PGTYPE_PAGE
    new.pages[root].pgtable_reverse_pn = root
    new.pages[root].pgtable_reverse_idx = index

    new.flush_tlb(pid)

    return cond, util.If(cond, new, old)
