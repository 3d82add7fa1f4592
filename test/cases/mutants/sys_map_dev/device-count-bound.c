// expect: refuted cond
// The bound is the number of devices (64), not the pages they fill (2).
#include "kernel.h"

int sys_map_dev(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    if (n >= NPCIDEV)
        return -EINVAL;
    if ((perm & PTE_W) != 0)
        return -EACCES;
    return map_page(pid, from, index, (uintptr_t)&devices[0] / PAGE_SIZE + n, perm,
                    PAGE_TYPE_X86_PT);
}
