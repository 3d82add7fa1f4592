// expect: refuted cond
// Children of live parents are taken away too: only the parent's validity is checked.
#include "kernel.h"

int sys_reparent(pid_t pid)
{
    struct proc *p;
    struct proc *init;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (!is_pid_valid(p->ppid))
        return -EINVAL;
    init = get_proc(INITPID);
    if (init->state != PROC_RUNNABLE && init->state != PROC_RUNNING)
        return -EINVAL;
    init->nr_children++;
    get_proc(p->ppid)->nr_children--;
    p->ppid = INITPID;
    return 0;
}
