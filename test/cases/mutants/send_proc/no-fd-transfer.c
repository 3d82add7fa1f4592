// expect: refuted procs.ofile
// The file descriptor is never passed to the receiver.
#include "kernel.h"

int send_proc(pid_t pid, uint64_t val, pn_t pn, size_t size, int fd)
{
    struct proc *to;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_proc_state(pid, PROC_SLEEPING))
        return -EAGAIN;
    if (!is_pn_valid(pn))
        return -EINVAL;
    if (!is_page_pid(pn, current))
        return -EACCES;
    if (size > PAGE_SIZE)
        return -EINVAL;
    if (is_fd_valid(fd) && !is_fn_valid(get_fd(current, fd)))
        return -EINVAL;
    assert(pid != current);

    to = get_proc(pid);
    to->ipc_from = current;
    to->ipc_val = val;
    copy_words(get_page(to->ipc_page), get_page(pn), size);
    to->ipc_size = size;
    to->state = PROC_RUNNING;
    get_proc(current)->state = PROC_RUNNABLE;
    proc_ready_add(pid);
    current = pid;
    return 0;
}
