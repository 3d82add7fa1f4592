// expect: refuted cond pages.type
// Any valid owner's page is reclaimed, not only a zombie's.
#include "kernel.h"

int sys_reclaim_page(pn_t pn)
{
    struct page_desc *desc;

    if (!is_pn_valid(pn))
        return -EINVAL;
    desc = get_page_desc(pn);
    if (desc->type == PAGE_TYPE_FREE)
        return -EINVAL;
    if (!is_pid_valid(desc->pid))
        return -EACCES;
    if (get_proc(desc->pid)->nr_devs != 0)
        return -EBUSY;
    free_page(pn);
    return 0;
}
