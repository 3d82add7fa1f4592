# expect-warning: SPEC204 25:5 this write would raise when pages.pgtable_perm is read: index 2 of pages.pgtable_perm must be a 64-bit bit-vector, got a 32-bit bit-vector
# upstream: partial_update compares the stored 32-bit index with the 64-bit read index (a z3 sort mismatch) only inside the closure, at a read; state_equiv never reads the ghost field.
# handler: sys_map_proc
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
    new.pages[frm].pgtable_perm[z3.Extract(31, 0, index)] = perm
    new.pages[frm].pgtable_type[index] = dt.PGTYPE_PROC
    new.flush_tlb(pid)
    return cond, util.If(cond, new, old)
