// expect: refuted procs.tlbinv
// The permission changes but stale TLB entries are kept.
#include "kernel.h"

int sys_protect_frame(pn_t pt, size_t index, pn_t frame, pte_t perm)
{
    uint64_t *table;
    uint64_t pfn;

    if (!is_page_type(pt, PAGE_TYPE_X86_PT))
        return -EINVAL;
    if (!is_page_pid(pt, current))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if (!is_page_type(frame, PAGE_TYPE_FRAME))
        return -EINVAL;
    if (!is_page_pid(frame, current))
        return -EACCES;
    table = get_page(pt);
    if ((table[index] & PTE_P) == 0)
        return -EINVAL;
    pfn = PTE_ADDR(table[index]) >> PTE_PFN_SHIFT;
    if (pfn != pn_to_pfn(frame))
        return -EINVAL;
    if ((perm & ~PTE_PERM_MASK) != 0)
        return -EINVAL;
    if ((perm & PTE_P) == 0)
        return -EINVAL;
    table[index] = (pfn << PTE_PFN_SHIFT) | perm;
    return 0;
}
