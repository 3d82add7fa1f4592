// expect: refuted procs.tlbinv
// The PT is freed while the TLB may still cache translations through it.
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
    if (pn_to_pfn(to) != PTE_ADDR(table[index]) >> PTE_PFN_SHIFT)
        return -EINVAL;
    free_page(to);
    table[index] = 0;
    return 0;
}
