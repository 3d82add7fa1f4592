// expect: refuted procs.nr_pages
// free_page does not uncount the page from its owner.
#include "kernel.h"

void free_page(pn_t pn)
{
    struct page_desc *desc = get_page_desc(pn);

    assert(desc->type != PAGE_TYPE_FREE);
    desc->pid = 0;
    desc->type = PAGE_TYPE_FREE;
    if (pn != 0)
        page_freelist_add(pn);
}
