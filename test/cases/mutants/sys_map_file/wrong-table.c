// expect: refuted pages.data
// The frame is computed from the device table's address.
#include "kernel.h"

int sys_map_file(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    if (n >= bytes_to_pages(NFILE * sizeof(struct file)))
        return -EINVAL;
    if ((perm & PTE_W) != 0)
        return -EACCES;
    return map_page(pid, from, index, (uintptr_t)&devices[0] / PAGE_SIZE + n, perm,
                    PAGE_TYPE_X86_PT);
}
