// expect: refuted safety
// `to` is not checked to be a FREE page: pn_to_pfn and alloc_page assert.
#include "kernel.h"

int sys_alloc_pt(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm)
{
    int r;

    r = map_page(pid, from, index, pn_to_pfn(to), perm, PAGE_TYPE_X86_PD);
    if (r != 0)
        return r;
    alloc_page(pid, PAGE_TYPE_X86_PT, to);
    return 0;
}
