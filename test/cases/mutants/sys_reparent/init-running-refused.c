// expect: refuted cond
// Only RUNNABLE init is accepted: a RUNNING init is refused.
#include "kernel.h"

int sys_reparent(pid_t pid)
{
    struct proc *p;
    struct proc *init;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (!is_proc_state(p->ppid, PROC_ZOMBIE))
        return -EINVAL;
    init = get_proc(INITPID);
    if (init->state != PROC_RUNNABLE)
        return -EINVAL;
    init->nr_children++;
    get_proc(p->ppid)->nr_children--;
    p->ppid = INITPID;
    return 0;
}
