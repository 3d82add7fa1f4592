import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
# uses: alloc_iommu_page_table_page


def sys_alloc_iommu_pt(old, frm, index, to, perm):
    # The new table level (IOMMU_PT) hangs below an entry of an IOMMU_PD page.
    return alloc_iommu_page_table_page(old, frm, index, to, perm,
                                       dt.page_type.PAGE_TYPE_IOMMU_PD,
                                       dt.page_type.PAGE_TYPE_IOMMU_PT)
