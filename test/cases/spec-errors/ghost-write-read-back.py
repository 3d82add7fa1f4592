# expect-error: SPEC011 25:5 pages.pgtable_perm holds 64-bit bit-vector values but a 32-bit bit-vector was written
# upstream: the write stores a closure; the spec itself then reads pgtable_perm, and the closure's z3.If meets a 32-bit value and a 64-bit map: z3py raises a sort mismatch there, so the read (not the write) fails.
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
    new.pages[frm].pgtable_perm[index] = z3.Extract(31, 0, perm)
    new.pages[frm].pgtable_type[index] = dt.PGTYPE_PROC
    new.flush_tlb(pid)
    cond = z3.And(cond, new.pages[frm].pgtable_perm(index) != 0)
    return cond, util.If(cond, new, old)
