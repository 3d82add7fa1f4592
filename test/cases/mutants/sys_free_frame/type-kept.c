// expect: refuted pages.type
// free_page clears the owner but leaves the type.
#include "kernel.h"

void free_page(pn_t pn)
{
    struct page_desc *desc = get_page_desc(pn);
    pid_t owner = desc->pid;

    assert(desc->type != PAGE_TYPE_FREE);
    desc->pid = 0;
    if (pn != 0)
        page_freelist_add(pn);
    get_proc(owner)->nr_pages--;
}
