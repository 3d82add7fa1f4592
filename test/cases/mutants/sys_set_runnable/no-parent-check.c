// expect: refuted cond procs.state
// Any process may start anyone's embryo: the ppid check is gone.
#include "kernel.h"

int sys_set_runnable(pid_t pid)
{
    struct proc *p;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (p->state != PROC_EMBRYO)
        return -EINVAL;
    p->state = PROC_RUNNABLE;
    proc_ready_add(pid);
    return 0;
}
