// expect: refuted pages.type
// The new page is typed as a PD, one level too low.
#include "kernel.h"

int sys_alloc_pdpt(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm)
{
    return alloc_page_table_page(pid, from, index, to, perm,
                                 PAGE_TYPE_X86_PML4, PAGE_TYPE_X86_PD);
}
