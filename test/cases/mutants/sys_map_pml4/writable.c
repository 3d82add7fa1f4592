// expect: refuted cond pages.data
// The read-only check is gone: a process can map its own PML4 writable and
// then edit its page table directly.
#include "kernel.h"

int sys_map_pml4(pid_t pid, size_t index, pte_t perm)
{
    pn_t root;

    if (!is_pid_valid(pid))
        return -ESRCH;
    root = get_proc(pid)->page_table_root;
    return map_page(pid, root, index, pn_to_pfn(root), perm, PAGE_TYPE_X86_PML4);
}
