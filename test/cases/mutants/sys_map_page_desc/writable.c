// expect: refuted cond pages.data
// The kernel's page descriptors can be mapped writable.
#include "kernel.h"

int sys_map_page_desc(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    if (n >= bytes_to_pages(NPAGE * sizeof(struct page_desc)))
        return -EINVAL;
    return map_page(pid, from, index, (uintptr_t)&page_desc_table[0] / PAGE_SIZE + n, perm,
                    PAGE_TYPE_X86_PT);
}
