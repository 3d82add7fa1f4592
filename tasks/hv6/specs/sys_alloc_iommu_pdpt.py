import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
# uses: alloc_iommu_page_table_page


def sys_alloc_iommu_pdpt(old, frm, index, to, perm):
    # The new table level (IOMMU_PDPT) hangs below an entry of an IOMMU_PML4 page.
    return alloc_iommu_page_table_page(old, frm, index, to, perm,
                                       dt.page_type.PAGE_TYPE_IOMMU_PML4,
                                       dt.page_type.PAGE_TYPE_IOMMU_PDPT)
