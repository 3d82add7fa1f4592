// expect: refuted cond
// The parent IOMMU table need not belong to current.
#include "kernel.h"

int sys_alloc_iommu_pd(pn_t from, size_t index, pn_t to, iommu_pte_t perm)
{
    uint64_t *table;

    if (!is_page_type(to, PAGE_TYPE_FREE))
        return -EINVAL;
    if (!is_page_type(from, PAGE_TYPE_IOMMU_PDPT))
        return -EINVAL;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if ((perm & ~(DMAR_PTE_R | DMAR_PTE_W)) != 0)
        return -EINVAL;
    table = get_page(from);
    if (table[index] != 0)
        return -EINVAL;
    table[index] = iommu_entry((uintptr_t)get_page(to), perm, 2);
    iommu_flush();
    alloc_page(current, PAGE_TYPE_IOMMU_PD, to);
    return 0;
}
