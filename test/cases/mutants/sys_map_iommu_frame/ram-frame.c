// expect: refuted pages.data
// The entry maps RAM page `to` instead of DMA page `to`.
#include "kernel.h"

int sys_map_iommu_frame(pn_t pt, size_t index, dmapn_t to, pte_t perm)
{
    if (!is_dmapage_type(to, PAGE_TYPE_IOMMU_FRAME))
        return -EINVAL;
    if (!is_dmapage_pid(to, current))
        return -EACCES;
    return map_page(current, pt, index, pn_to_pfn(to), perm, PAGE_TYPE_X86_PT);
}
