// expect: refuted pages.data
// The entry points at RAM page `to` instead of DMA page `to`.
#include "kernel.h"

int sys_alloc_iommu_frame(pn_t from, size_t index, dmapn_t to, iommu_pte_t perm)
{
    struct page_desc *desc;
    int r;

    if (!is_dmapn_valid(to))
        return -EINVAL;
    desc = &dmapage_desc_table[to];
    if (desc->type != PAGE_TYPE_FREE)
        return -EBUSY;
    r = map_iommu_page_table_page(from, index, (uintptr_t)get_page(to), perm,
                                  PAGE_TYPE_IOMMU_PT);
    if (r != 0)
        return r;
    desc->type = PAGE_TYPE_IOMMU_FRAME;
    desc->pid = current;
    get_proc(current)->nr_dmapages++;
    return 0;
}
