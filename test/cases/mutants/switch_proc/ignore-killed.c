// expect: refuted procs.state
// A killed current is made RUNNABLE instead of a ZOMBIE.
#include "kernel.h"

int switch_proc(pid_t pid)
{
    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_proc_state(pid, PROC_RUNNABLE))
        return -EINVAL;
    get_proc(current)->state = PROC_RUNNABLE;
    get_proc(pid)->state = PROC_RUNNING;
    current = pid;
    return 0;
}
