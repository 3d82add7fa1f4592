// expect: refuted pages.data
// The entry points at the process's stack page instead of its root.
#include "kernel.h"

int sys_map_pml4(pid_t pid, size_t index, pte_t perm)
{
    pn_t root;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if ((perm & PTE_W) != 0)
        return -EACCES;
    root = get_proc(pid)->page_table_root;
    return map_page(pid, root, index, pn_to_pfn(get_proc(pid)->stack), perm,
                    PAGE_TYPE_X86_PML4);
}
