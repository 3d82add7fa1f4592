// expect: refuted cond
// The page bound is computed from the process table (6 pages), so pages
// 6..63 of page_desc_table cannot be mapped.
#include "kernel.h"

int sys_map_page_desc(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    if (n >= bytes_to_pages(NPROC * sizeof(struct proc)))
        return -EINVAL;
    if ((perm & PTE_W) != 0)
        return -EACCES;
    return map_page(pid, from, index, (uintptr_t)&page_desc_table[0] / PAGE_SIZE + n, perm,
                    PAGE_TYPE_X86_PT);
}
