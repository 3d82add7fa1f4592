# expect: refuted pages.data
# mistake: an x86-style frame number is stored instead of a byte address
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pn_valid


def alloc_iommu_page_table_page(old, frm, index, to, perm, from_type, to_type):
    cur = old.current

    cond = z3.And(
        # the page to allocate is a RAM page number
        is_pn_valid(to),
        # and it is free
        old.pages[to].type == dt.page_type.PAGE_TYPE_FREE,
        # the parent IOMMU table page is a RAM page number
        is_pn_valid(frm),
        # of the level just above the new page
        old.pages[frm].type == from_type,
        # owned by the caller
        old.pages[frm].owner == cur,
        # the entry index is inside the table
        z3.ULT(index, 512),
        # perm only uses the IOMMU read and write bits
        perm & (dt.MAX_INT64 ^ (dt.DMAR_PTE_R | dt.DMAR_PTE_W)) == z3.BitVecVal(0, dt.dmar_pte_t),
        # the whole entry is still zero
        old.pages[frm].data(index) == z3.BitVecVal(0, dt.uint64_t),
    )

    new = old.copy()

    # IOMMU entries hold the byte address of the next level, not a shifted frame number.
    new.pages[frm].data[index] = (
        (z3.UDiv(new.pages_ptr_to_int, util.i64(dt.PAGE_SIZE)) + to) << dt.PTE_PFN_SHIFT) | perm
    new.pages[frm].pgtable_pn[index] = to
    new.pages[frm].pgtable_perm[index] = perm

    new.pages[to].type = to_type
    new.pages[to].owner = cur
    new.pages[to].data = z3.BitVecVal(0, dt.uint64_t)
    new.procs[cur].nr_pages[to] += 1

    new.flush_iotlb()

    return cond, util.If(cond, new, old)



def sys_alloc_iommu_pdpt(old, frm, index, to, perm):
    # The new table level (IOMMU_PDPT) hangs below an entry of an IOMMU_PML4 page.
    return alloc_iommu_page_table_page(old, frm, index, to, perm,
                                       dt.page_type.PAGE_TYPE_IOMMU_PML4,
                                       dt.page_type.PAGE_TYPE_IOMMU_PDPT)
