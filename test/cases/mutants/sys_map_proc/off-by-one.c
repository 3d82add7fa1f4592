// expect: refuted cond
// The bound test is off by one: the page after the process table is mappable.
#include "kernel.h"

int sys_map_proc(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    if (n > bytes_to_pages(NPROC * sizeof(struct proc)))
        return -EINVAL;
    if ((perm & PTE_W) != 0)
        return -EACCES;
    return map_page(pid, from, index, (uintptr_t)&proc_table[0] / PAGE_SIZE + n, perm,
                    PAGE_TYPE_X86_PT);
}
