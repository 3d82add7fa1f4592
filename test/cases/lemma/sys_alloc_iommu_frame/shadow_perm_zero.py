# expect: verified
# expect: lemma-fail iommu_isolation
# ghost mistake: the shadow forgets the permission bits
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pn_valid, is_dmapn_valid


def sys_alloc_iommu_frame(old, frm, index, to, perm):
    cur = old.current

    cond = z3.And(
        # `to` is a DMA page number
        is_dmapn_valid(to),
        # and that DMA page is free
        old.dmapages[to].type == dt.page_type.PAGE_TYPE_FREE,
        # the IOMMU table page is a RAM page number
        is_pn_valid(frm),
        # of the last IOMMU level
        old.pages[frm].type == dt.page_type.PAGE_TYPE_IOMMU_PT,
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

    # The entry holds the DMA page's byte address with the permission bits.
    new.pages[frm].data[index] = (
        new.dmapages_ptr_to_int + to * util.i64(dt.PAGE_SIZE)) | perm
    new.pages[frm].pgtable_pn[index] = to
    new.pages[frm].pgtable_perm[index] = z3.BitVecVal(0, dt.uint64_t)

    new.dmapages[to].type = dt.page_type.PAGE_TYPE_IOMMU_FRAME
    new.dmapages[to].owner = cur
    new.procs[cur].nr_dmapages[to] += 1

    new.flush_iotlb()

    return cond, util.If(cond, new, old)
