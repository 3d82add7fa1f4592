// expect: refuted cond
// The permission is checked against the x86 user bits instead of the IOMMU
// read/write bits.
#include "kernel.h"

int sys_alloc_iommu_pdpt(pn_t from, size_t index, pn_t to, iommu_pte_t perm)
{
    uint64_t *table;

    if (!is_page_type(to, PAGE_TYPE_FREE))
        return -EINVAL;
    if (!is_page_type(from, PAGE_TYPE_IOMMU_PML4))
        return -EINVAL;
    if (!is_page_pid(from, current))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if ((perm & ~PTE_PERM_MASK) != 0)
        return -EINVAL;
    table = get_page(from);
    if (table[index] != 0)
        return -EINVAL;
    table[index] = iommu_entry((uintptr_t)get_page(to), perm, 3);
    iommu_flush();
    alloc_page(current, PAGE_TYPE_IOMMU_PDPT, to);
    if (index == 0)
        iommu_hack_root((uintptr_t)get_page(from), (uintptr_t)get_page(to));
    return 0;
}
