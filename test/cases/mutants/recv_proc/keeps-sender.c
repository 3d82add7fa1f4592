// expect: refuted procs.ipc_from
// The old sender is left in ipc_from, so the receiver filters on a stale pid.
#include "kernel.h"

int recv_proc(pid_t pid, pn_t pn, int fd)
{
    struct proc *cur;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_proc_state(pid, PROC_RUNNABLE))
        return -EINVAL;
    if (!is_pn_valid(pn))
        return -EINVAL;
    if (!is_page_pid(pn, current))
        return -EACCES;
    if (!is_page_type(pn, PAGE_TYPE_FRAME))
        return -EINVAL;
    if (is_fd_valid(fd) && is_fn_valid(get_fd(current, fd)))
        return -EINVAL;
    assert(pid != current);

    cur = get_proc(current);
    cur->ipc_page = pn;
    cur->ipc_size = 0;
    cur->ipc_fd = fd;
    cur->state = PROC_SLEEPING;
    proc_ready_del(current);
    get_proc(pid)->state = PROC_RUNNING;
    current = pid;
    return 0;
}
