// expect: refuted pages.data
// alloc_page hands out the page with its old contents.
#include "kernel.h"

void alloc_page(pid_t pid, enum page_type type, pn_t pn)
{
    struct page_desc *desc = get_page_desc(pn);

    assert(desc->type == PAGE_TYPE_FREE);
    desc->pid = pid;
    desc->type = type;
    if (pn != 0)
        page_freelist_del(pn);
    get_proc(pid)->nr_pages++;
}
