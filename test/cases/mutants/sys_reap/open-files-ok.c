// expect: refuted cond
// A zombie that still has open files is reaped.
#include "kernel.h"

int sys_reap(pid_t pid)
{
    struct proc *p;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (p->ppid != current)
        return -EACCES;
    if (p->state != PROC_ZOMBIE)
        return -EINVAL;
    if ((p->nr_devs | p->nr_children | p->nr_pages | p->nr_dmapages |
         p->nr_ports | p->nr_vectors | p->nr_intremaps) != 0)
        return -ETXTBSY;
    free_proc(pid);
    return 0;
}
