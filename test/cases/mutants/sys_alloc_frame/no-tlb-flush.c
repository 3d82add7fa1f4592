// expect: refuted procs.tlbinv
// The frame is mapped without a TLB shootdown.
#include "kernel.h"

int sys_alloc_frame(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm)
{
    uint64_t *table;

    if (!is_page_type(to, PAGE_TYPE_FREE))
        return -EINVAL;
    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    if (!is_page_type(from, PAGE_TYPE_X86_PT))
        return -EINVAL;
    if (!is_page_pid(from, pid))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if ((perm & ~PTE_PERM_MASK) != 0)
        return -EINVAL;
    if ((perm & PTE_P) == 0)
        return -EINVAL;
    table = get_page(from);
    if ((table[index] & PTE_P) != 0)
        return -EINVAL;
    table[index] = (pn_to_pfn(to) << PTE_PFN_SHIFT) | perm;
    alloc_page(pid, PAGE_TYPE_FRAME, to);
    return 0;
}
