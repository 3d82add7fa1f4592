// expect: refuted procs.nr_children
// free_proc does not drop the child from its parent's nr_children.
#include "kernel.h"

void free_proc(pid_t pid)
{
    struct proc *p = get_proc(pid);

    p->state = PROC_UNUSED;
    p->ppid = 0;
    p->page_table_root = 0;
    p->stack = 0;
    p->hvm = 0;
    p->launched = 0;
    p->killed = 0;
    p->use_io_bitmap = 0;
    p->io_bitmap_a = 0;
    p->io_bitmap_b = 0;
    p->name[0] = 0;
    p->name[1] = 0;
}
