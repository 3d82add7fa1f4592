// expect: refuted cond
// Pages are reclaimed from a zombie that still owns devices, whose DMA may
// still reach them through its IOMMU tables.
#include "kernel.h"

int sys_reclaim_page(pn_t pn)
{
    struct page_desc *desc;

    if (!is_pn_valid(pn))
        return -EINVAL;
    desc = get_page_desc(pn);
    if (desc->type == PAGE_TYPE_FREE)
        return -EINVAL;
    if (!is_proc_state(desc->pid, PROC_ZOMBIE))
        return -EACCES;
    free_page(pn);
    return 0;
}
