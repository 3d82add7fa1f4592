// expect: refuted procs.nr_dmapages
// The DMA page is freed but still counted for its old owner.
#include "kernel.h"

int sys_reclaim_iommu_frame(dmapn_t dmapn)
{
    struct page_desc *desc;

    if (!is_dmapn_valid(dmapn))
        return -EINVAL;
    desc = &dmapage_desc_table[dmapn];
    if (desc->type == PAGE_TYPE_FREE)
        return -EINVAL;
    if (!is_proc_state(desc->pid, PROC_ZOMBIE))
        return -EACCES;
    if (get_proc(desc->pid)->nr_devs != 0)
        return -EBUSY;
    desc->type = PAGE_TYPE_FREE;
    desc->pid = 0;
    return 0;
}
