# expect: verified
# expect: lemma-fail nr_children_refcnt
# ghost mistake: the parent is counted as its own child in the permutation
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid


def sys_clone(old, pid, pml4, stack, hvm):
    cur = old.current

    cond = z3.And(
        # the child's pid is a real process-table slot (1..NPROC-1)
        is_pid_valid(pid),
        # that slot is not in use
        old.procs[pid].state == dt.proc_state.PROC_UNUSED,
        # the future root page-table page is a RAM page number
        is_pn_valid(pml4),
        # and that page is free
        old.pages[pml4].type == dt.page_type.PAGE_TYPE_FREE,
        # the future stack page is a RAM page number
        is_pn_valid(stack),
        # and that page is free
        old.pages[stack].type == dt.page_type.PAGE_TYPE_FREE,
        # the future hvm page is a RAM page number
        is_pn_valid(hvm),
        # and that page is free
        old.pages[hvm].type == dt.page_type.PAGE_TYPE_FREE,
        # the three pages are three different pages
        z3.Distinct(pml4, stack, hvm),
    )

    new = old.copy()

    # A fresh embryo whose parent is the caller.
    new.procs[pid].ppid = cur
    new.procs[pid].state = dt.proc_state.PROC_EMBRYO
    new.procs[pid].killed = z3.BoolVal(False)
    new.procs[pid].ipc_from = z3.BitVecVal(0, dt.pid_t)
    new.procs[pid].ipc_val = z3.BitVecVal(0, dt.uint64_t)
    new.procs[pid].ipc_page = z3.BitVecVal(0, dt.pn_t)
    new.procs[pid].ipc_size = z3.BitVecVal(0, dt.size_t)
    new.procs[pid].ipc_fd = z3.BitVecVal(0, dt.fd_t)
    new.procs[pid].use_io_bitmap = z3.BoolVal(False)
    new.procs[pid].io_bitmap_a = z3.BitVecVal(0, dt.pn_t)
    new.procs[pid].io_bitmap_b = z3.BitVecVal(0, dt.pn_t)

    # No open files and no pending interrupts.
    new.procs[pid].ofile = z3.BitVecVal(0, dt.fn_t)
    new.procs[pid].intr = z3.BitVecVal(0, dt.uint64_t)

    # The shadow of the new root table starts with no entries.
    new.pages[pml4].pgtable_pn = z3.BitVecVal(0, dt.uint64_t)
    new.pages[pml4].pgtable_perm = z3.BitVecVal(0, dt.uint64_t)
    new.pages[pml4].pgtable_type = dt.PGTYPE_NONE

    # Root page-table page: zeroed, owned by the child.
    new.pages[pml4].type = dt.page_type.PAGE_TYPE_X86_PML4
    new.pages[pml4].owner = pid
    new.pages[pml4].data = z3.BitVecVal(0, dt.uint64_t)
    new.procs[pid].nr_pages[pml4] += 1

    # Stack page: zeroed (then overwritten by the copy below), owned by the child.
    new.pages[stack].type = dt.page_type.PAGE_TYPE_PROC_DATA
    new.pages[stack].owner = pid
    new.pages[stack].data = z3.BitVecVal(0, dt.uint64_t)
    new.procs[pid].nr_pages[stack] += 1

    # hvm page: zeroed (then overwritten by the copy below), owned by the child.
    new.pages[hvm].type = dt.page_type.PAGE_TYPE_PROC_DATA
    new.pages[hvm].owner = pid
    new.pages[hvm].data = z3.BitVecVal(0, dt.uint64_t)
    new.procs[pid].nr_pages[hvm] += 1

    new.procs[pid].page_table_root = pml4
    new.procs[pid].stack = stack
    new.procs[pid].hvm = hvm

    # The caller gains a child.
    new.procs[cur].nr_children[cur] += 1

    # The child starts as a copy of the parent's hvm and stack pages.
    parent_hvm = old.procs[cur].hvm
    parent_stack = old.procs[cur].stack
    new.pages.data = lambda p, i, oldfn: util.If(p == hvm, oldfn(parent_hvm, i), oldfn(p, i))
    new.pages.data = lambda p, i, oldfn: util.If(p == stack, oldfn(parent_stack, i), oldfn(p, i))

    return cond, util.If(cond, new, old)


clone_proc = sys_clone
