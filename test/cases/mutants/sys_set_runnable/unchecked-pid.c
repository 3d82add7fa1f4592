// expect: refuted safety
// No validity check on pid before get_proc.
#include "kernel.h"

int sys_set_runnable(pid_t pid)
{
    struct proc *p = get_proc(pid);

    if (p->ppid != current)
        return -EACCES;
    if (p->state != PROC_EMBRYO)
        return -EINVAL;
    p->state = PROC_RUNNABLE;
    proc_ready_add(pid);
    return 0;
}
