# expect-warning: SPEC204 27:97 this write would raise when pages.pgtable_type is read: module 'dt' has no attribute 'PGTYPE_PROCESS'; did you mean dt.PGTYPE_PROC?
# upstream: the lambda's body runs only when pgtable_type is read, where dt.PGTYPE_PROCESS raises an AttributeError; state_equiv never reads the ghost field, so the refinement proof passes.
# handler: sys_map_proc
# verdict: verified
def sys_map_proc(old, pid, frm, index, n, perm):
    cur = old.current
    cond = z3.And(
        z3.ULT(n, dt.NPAGES_PROC_TABLE),
        is_pid_valid(pid),
        z3.Or(pid == cur,
              z3.And(old.procs[pid].ppid == cur,
                     old.procs[pid].state == dt.proc_state.PROC_EMBRYO)),
        is_pn_valid(frm),
        old.pages[frm].type == dt.page_type.PAGE_TYPE_X86_PT,
        old.pages[frm].owner == pid,
        z3.ULT(index, 512),
        perm & (dt.MAX_INT64 ^ dt.PTE_PERM_MASK) == z3.BitVecVal(0, dt.pte_t),
        perm & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        perm & dt.PTE_W == z3.BitVecVal(0, dt.pte_t),
        old.pages[frm].data(index) & dt.PTE_P == z3.BitVecVal(0, dt.pte_t),
    )
    new = old.copy()
    new.pages[frm].data[index] = (
        (z3.UDiv(new.proc_table_ptr_to_int, util.i64(dt.PAGE_SIZE)) + n) << dt.PTE_PFN_SHIFT) | perm
    new.pages[frm].pgtable_pn[index] = n
    new.pages[frm].pgtable_perm[index] = perm
    new.pages.pgtable_type = lambda pn, idx, oldfn: util.If(z3.And(pn == frm, idx == index), dt.PGTYPE_PROCESS, oldfn(pn, idx))
    new.flush_tlb(pid)
    return cond, util.If(cond, new, old)
