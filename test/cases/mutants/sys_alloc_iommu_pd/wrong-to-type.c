// expect: refuted pages.type
// The new page is typed one level too low.
#include "kernel.h"

int sys_alloc_iommu_pd(pn_t from, size_t index, pn_t to, iommu_pte_t perm)
{
    return alloc_iommu_page_table_page(from, index, to, perm,
                                       PAGE_TYPE_IOMMU_PDPT, PAGE_TYPE_IOMMU_PT);
}
