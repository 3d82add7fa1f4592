// expect: refuted cond procs.state
// Switching to a process in any state is allowed (sleepers, zombies, ...).
#include "kernel.h"

int switch_proc(pid_t pid)
{
    struct proc *old;

    if (!is_pid_valid(pid))
        return -ESRCH;
    old = get_proc(current);
    if (old->killed) {
        old->state = PROC_ZOMBIE;
        proc_ready_del(current);
    } else {
        old->state = PROC_RUNNABLE;
    }
    get_proc(pid)->state = PROC_RUNNING;
    current = pid;
    return 0;
}
