// expect: refuted cond
// DMA pages are reclaimed while their zombie owner still has devices that
// can write to them.
#include "kernel.h"

int sys_reclaim_iommu_frame(dmapn_t dmapn)
{
    struct page_desc *desc;
    pid_t owner;

    if (!is_dmapn_valid(dmapn))
        return -EINVAL;
    desc = &dmapage_desc_table[dmapn];
    if (desc->type == PAGE_TYPE_FREE)
        return -EINVAL;
    owner = desc->pid;
    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    desc->type = PAGE_TYPE_FREE;
    desc->pid = 0;
    get_proc(owner)->nr_dmapages--;
    return 0;
}
