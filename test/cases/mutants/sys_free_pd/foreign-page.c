// expect: refuted cond
// The freed page need not belong to current.
#include "kernel.h"

int sys_free_pd(pn_t from, size_t index, pn_t to)
{
    uint64_t *table;

    if (!is_page_type(from, PAGE_TYPE_X86_PDPT))
        return -EINVAL;
    if (!is_page_pid(from, current))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if (!is_page_type(to, PAGE_TYPE_X86_PD))
        return -EINVAL;
    table = get_page(from);
    if ((table[index] & PTE_P) == 0)
        return -EINVAL;
    if (pn_to_pfn(to) != PTE_ADDR(table[index]) >> PTE_PFN_SHIFT)
        return -EINVAL;
    free_page(to);
    table[index] = 0;
    hvm_invalidate_tlb(current);
    return 0;
}
