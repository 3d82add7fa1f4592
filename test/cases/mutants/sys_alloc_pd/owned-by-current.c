// expect: refuted pages.owner procs.nr_pages
// The new table page goes to current even when it is built for an embryo child.
#include "kernel.h"

int alloc_page_table_page(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm,
                          enum page_type from_type, enum page_type to_type)
{
    int r;

    if (!is_page_type(to, PAGE_TYPE_FREE))
        return -EINVAL;
    r = map_page(pid, from, index, pn_to_pfn(to), perm, from_type);
    if (r != 0)
        return r;
    alloc_page(current, to_type, to);
    return 0;
}
