// expect: refuted cond
// Killing a ZOMBIE again succeeds.
#include "kernel.h"

int sys_kill(pid_t pid)
{
    struct proc *p;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (p->state == PROC_UNUSED)
        return -EINVAL;
    p->killed = 1;
    if (p->state != PROC_RUNNING) {
        p->state = PROC_ZOMBIE;
        proc_ready_del(pid);
    }
    return 0;
}
