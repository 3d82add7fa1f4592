// expect: refuted pages.type
// alloc_proc gives the hvm page the FRAME type instead of PROC_DATA.
#include "kernel.h"

int alloc_proc(pid_t pid, pn_t pml4, pn_t stack, pn_t hvm)
{
    struct proc *p;

    if (!is_proc_state(pid, PROC_UNUSED))
        return -ENOMEM;
    if (!is_page_type(pml4, PAGE_TYPE_FREE))
        return -ENOMEM;
    if (!is_page_type(stack, PAGE_TYPE_FREE))
        return -ENOMEM;
    if (!is_page_type(hvm, PAGE_TYPE_FREE))
        return -ENOMEM;
    if (pml4 == stack)
        return -EINVAL;
    if (pml4 == hvm)
        return -EINVAL;
    if (stack == hvm)
        return -EINVAL;

    p = get_proc(pid);
    proc_zero(p);
    p->ppid = current;
    p->state = PROC_EMBRYO;
    alloc_page(pid, PAGE_TYPE_X86_PML4, pml4);
    p->page_table_root = pml4;
    alloc_page(pid, PAGE_TYPE_PROC_DATA, stack);
    p->stack = stack;
    alloc_page(pid, PAGE_TYPE_FRAME, hvm);
    p->hvm = hvm;
    get_proc(current)->nr_children++;
    return 0;
}
