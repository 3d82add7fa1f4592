# expect: refuted pages.data
# mistake: an IOMMU-style byte address is stored in an x86 entry
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pn_valid, is_dmapn_valid


def sys_map_iommu_frame(old, pt, index, to, perm):
    cur = old.current

    cond = z3.And(
        # `to` is a DMA page number
        is_dmapn_valid(to),
        # of a DMA page in use as an IOMMU frame
        old.dmapages[to].type == dt.page_type.PAGE_TYPE_IOMMU_FRAME,
        # owned by the caller
        old.dmapages[to].owner == cur,
        # the page-table page is a RAM page number
        is_pn_valid(pt),
        # of the last x86 level
        old.pages[pt].type == dt.page_type.PAGE_TYPE_X86_PT,
        # owned by the caller
        old.pages[pt].owner == cur,
        # the entry index is inside the table
        z3.ULT(index, 512),
        # perm only uses bits a user may set
        perm & (dt.MAX_INT64 ^ dt.PTE_PERM_MASK) == z3.BitVecVal(0, dt.pte_t),
        # perm makes the entry present
        perm & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        # the entry is not present yet
        old.pages[pt].data(index) & dt.PTE_P == z3.BitVecVal(0, dt.pte_t),
    )

    new = old.copy()

    new.pages[pt].data[index] = (
        new.dmapages_ptr_to_int + to * util.i64(dt.PAGE_SIZE)) | perm
    new.pages[pt].pgtable_pn[index] = to
    new.pages[pt].pgtable_perm[index] = perm
    new.pages[pt].pgtable_type[index] = dt.PGTYPE_IOMMU_FRAME

    new.flush_tlb(cur)

    return cond, util.If(cond, new, old)
