// expect: refuted current
// The states change but current still names the old process.
#include "kernel.h"

int switch_proc(pid_t pid)
{
    struct proc *old;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_proc_state(pid, PROC_RUNNABLE))
        return -EINVAL;
    old = get_proc(current);
    if (old->killed) {
        old->state = PROC_ZOMBIE;
        proc_ready_del(current);
    } else {
        old->state = PROC_RUNNABLE;
    }
    get_proc(pid)->state = PROC_RUNNING;
    return 0;
}
