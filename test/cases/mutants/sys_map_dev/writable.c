// expect: refuted cond
// The device table can be mapped writable.
#include "kernel.h"

int sys_map_dev(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    if (n >= bytes_to_pages(NPCIDEV * sizeof(struct pci_func)))
        return -EINVAL;
    return map_page(pid, from, index, (uintptr_t)&devices[0] / PAGE_SIZE + n, perm,
                    PAGE_TYPE_X86_PT);
}
