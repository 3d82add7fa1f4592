// expect: refuted pages.data
// The IOMMU entry holds the page's frame number, x86 style, instead of its
// byte address.
#include "kernel.h"

int sys_alloc_iommu_pdpt(pn_t from, size_t index, pn_t to, iommu_pte_t perm)
{
    int r;

    if (!is_page_type(to, PAGE_TYPE_FREE))
        return -EINVAL;
    r = map_iommu_page_table_page(from, index, pn_to_pfn(to), perm, PAGE_TYPE_IOMMU_PML4);
    if (r != 0)
        return r;
    alloc_page(current, PAGE_TYPE_IOMMU_PDPT, to);
    if (index == 0)
        iommu_hack_root((uintptr_t)get_page(from), (uintptr_t)get_page(to));
    return 0;
}
