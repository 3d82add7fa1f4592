// expect: refuted cond
// The parent table must be a PDPT instead of a PML4.
#include "kernel.h"

int sys_alloc_pdpt(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm)
{
    return alloc_page_table_page(pid, from, index, to, perm,
                                 PAGE_TYPE_X86_PDPT, PAGE_TYPE_X86_PDPT);
}
