// expect: refuted cond
// map_page accepts any permission bits (PS, G, reserved bits, ...).
#include "kernel.h"

int map_page(pid_t pid, pn_t from, size_t index, uint64_t pfn, pte_t perm,
             enum page_type from_type)
{
    uint64_t *table;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    if (!is_page_type(from, from_type))
        return -EINVAL;
    if (!is_page_pid(from, pid))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if ((perm & PTE_P) == 0)
        return -EINVAL;
    table = get_page(from);
    if ((table[index] & PTE_P) != 0)
        return -EINVAL;
    table[index] = (pfn << PTE_PFN_SHIFT) | perm;
    hvm_invalidate_tlb(pid);
    return 0;
}
