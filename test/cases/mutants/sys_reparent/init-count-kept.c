// expect: refuted procs.nr_children
// init adopts the child without counting it.
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
    if (init->state != PROC_RUNNABLE && init->state != PROC_RUNNING)
        return -EINVAL;
    get_proc(p->ppid)->nr_children--;
    p->ppid = INITPID;
    return 0;
}
