// expect: refuted procs.ppid
// free_proc leaves the old parent in the freed slot.
#include "kernel.h"

void free_proc(pid_t pid)
{
    struct proc *p = get_proc(pid);

    get_proc(p->ppid)->nr_children--;
    p->state = PROC_UNUSED;
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
