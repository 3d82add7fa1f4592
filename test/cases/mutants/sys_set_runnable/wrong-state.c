// expect: refuted procs.state
// The embryo is marked RUNNING instead of RUNNABLE.
#include "kernel.h"

int sys_set_runnable(pid_t pid)
{
    struct proc *p;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (p->ppid != current)
        return -EACCES;
    if (p->state != PROC_EMBRYO)
        return -EINVAL;
    p->state = PROC_RUNNING;
    proc_ready_add(pid);
    return 0;
}
