# expect: refuted cond
# mistake: reserved perm bits are accepted
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pn_valid


def sys_protect_frame(old, pt, index, frame, perm):
    cur = old.current
    pfn = z3.UDiv(old.pages_ptr_to_int, util.i64(dt.PAGE_SIZE)) + frame
    entry = old.pages[pt].data(index)

    cond = z3.And(
        # the page-table page is a RAM page number
        is_pn_valid(pt),
        # of the last level
        old.pages[pt].type == dt.page_type.PAGE_TYPE_X86_PT,
        # owned by the caller
        old.pages[pt].owner == cur,
        # the entry index is inside the table
        z3.ULT(index, 512),
        # the frame is a RAM page number
        is_pn_valid(frame),
        # holding a frame
        old.pages[frame].type == dt.page_type.PAGE_TYPE_FRAME,
        # of the caller
        old.pages[frame].owner == cur,
        # the entry is present
        entry & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        # the frame's frame number fits in the 40-bit frame field
        z3.Extract(63, 40, pfn) == z3.BitVecVal(0, 24),
        # and the entry maps exactly that frame
        z3.Extract(39, 0, pfn) == z3.Extract(51, 12, entry),
        # perm keeps the entry present
        perm & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
    )

    new = old.copy()

    new.pages[pt].data[index] = (pfn << dt.PTE_PFN_SHIFT) | perm
    new.pages[pt].pgtable_perm[index] = perm

    new.flush_tlb(cur)

    return cond, util.If(cond, new, old)
