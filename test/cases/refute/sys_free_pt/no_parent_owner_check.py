# expect: refuted cond
# mistake: another process's table may be modified
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pn_valid


def free_page_table_page(old, frm, index, to, from_type, to_type):
    cur = old.current
    pfn = z3.UDiv(old.pages_ptr_to_int, util.i64(dt.PAGE_SIZE)) + to
    entry = old.pages[frm].data(index)

    cond = z3.And(
        # the parent table page is a RAM page number
        is_pn_valid(frm),
        # of the level just above the page being freed
        old.pages[frm].type == from_type,
        # the entry index is inside the table
        z3.ULT(index, 512),
        # the page to free is a RAM page number
        is_pn_valid(to),
        # of the expected level
        old.pages[to].type == to_type,
        # owned by the caller
        old.pages[to].owner == cur,
        # the entry is present
        entry & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        # the page's frame number fits in the 40-bit frame field
        z3.Extract(63, 40, pfn) == z3.BitVecVal(0, 24),
        # and the entry's frame field (bits 51..12) is that frame number
        z3.Extract(39, 0, pfn) == z3.Extract(51, 12, entry),
    )

    new = old.copy()

    new.pages[frm].data[index] = z3.BitVecVal(0, dt.pte_t)
    new.pages[to].owner = z3.BitVecVal(0, dt.pid_t)
    new.pages[to].type = dt.page_type.PAGE_TYPE_FREE
    new.procs[cur].nr_pages[to] -= 1

    new.flush_tlb(cur)

    return cond, util.If(cond, new, old)



def sys_free_pt(old, frm, index, to):
    # Unhook a X86_PT page from the X86_PD entry that maps it, and free it.
    return free_page_table_page(old, frm, index, to,
                                dt.page_type.PAGE_TYPE_X86_PD,
                                dt.page_type.PAGE_TYPE_X86_PT)
