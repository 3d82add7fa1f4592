// expect: refuted iotlbinv
// map_iommu_page_table_page never flushes the IOTLB.
#include "kernel.h"

int map_iommu_page_table_page(pn_t from, size_t index, physaddr_t pa,
                              iommu_pte_t perm, enum page_type from_type)
{
    uint64_t *table;

    if (!is_page_type(from, from_type))
        return -EINVAL;
    if (!is_page_pid(from, current))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if ((perm & ~(DMAR_PTE_R | DMAR_PTE_W)) != 0)
        return -EINVAL;
    table = get_page(from);
    if (table[index] != 0)
        return -EINVAL;
    table[index] = iommu_entry(pa, perm, PAGE_TYPE_IOMMU_FRAME - 1 - from_type);
    return 0;
}
