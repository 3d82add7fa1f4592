import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
# uses: alloc_iommu_page_table_page


def sys_alloc_iommu_pd(old, frm, index, to, perm):
    # The new table level (IOMMU_PD) hangs below an entry of an IOMMU_PDPT page.
    return alloc_iommu_page_table_page(old, frm, index, to, perm,
                                       dt.page_type.PAGE_TYPE_IOMMU_PDPT,
                                       dt.page_type.PAGE_TYPE_IOMMU_PD)
