// expect: refuted pages.data
// The child's stack is copied from the parent's hvm page instead of its stack.
#include "kernel.h"

int clone_proc(pid_t pid, pn_t pml4, pn_t stack, pn_t hvm)
{
    struct proc *parent;
    struct proc *child;
    int r;

    r = alloc_proc(pid, pml4, stack, hvm);
    if (r != 0)
        return r;
    parent = get_proc(current);
    child = get_proc(pid);
    memcpy(get_page(child->stack), get_page(parent->hvm), PAGE_SIZE);
    flush_current();
    hvm_flush(get_page(child->hvm));
    memcpy(get_page(child->hvm), get_page(parent->hvm), PAGE_SIZE);
    hvm_copy(get_page(child->hvm), get_page(parent->hvm), pid);
    return 0;
}
