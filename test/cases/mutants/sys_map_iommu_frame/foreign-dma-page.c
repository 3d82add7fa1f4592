// expect: refuted cond pages.data
// Another process's DMA page can be mapped.
#include "kernel.h"

int sys_map_iommu_frame(pn_t pt, size_t index, dmapn_t to, pte_t perm)
{
    if (!is_dmapage_type(to, PAGE_TYPE_IOMMU_FRAME))
        return -EINVAL;
    return map_page(current, pt, index, (uintptr_t)dmapages[0] / PAGE_SIZE + to, perm,
                    PAGE_TYPE_X86_PT);
}
