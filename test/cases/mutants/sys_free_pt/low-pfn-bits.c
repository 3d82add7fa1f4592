// expect: refuted cond
// Only the 40 frame-number bits an entry can hold are compared, so a page
// whose frame number does not fit in 40 bits matches a truncated entry.
#include "kernel.h"

int sys_free_pt(pn_t from, size_t index, pn_t to)
{
    uint64_t *table;

    if (!is_page_type(from, PAGE_TYPE_X86_PD))
        return -EINVAL;
    if (!is_page_pid(from, current))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if (!is_page_type(to, PAGE_TYPE_X86_PT))
        return -EINVAL;
    if (!is_page_pid(to, current))
        return -EACCES;
    table = get_page(from);
    if ((table[index] & PTE_P) == 0)
        return -EINVAL;
    if ((pn_to_pfn(to) & 0xFFFFFFFFFFUL) != PTE_ADDR(table[index]) >> PTE_PFN_SHIFT)
        return -EINVAL;
    free_page(to);
    table[index] = 0;
    hvm_invalidate_tlb(current);
    return 0;
}
