// expect: refuted pages.data
// The copy length is taken as bytes and converted to words, so only
// size / 8 words arrive instead of size.
#include "kernel.h"

int send_recv(pid_t pid, uint64_t val, pn_t inpn, size_t size, int infd,
              pn_t outpn, int outfd)
{
    struct proc *cur;
    struct proc *to;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_proc_state(pid, PROC_SLEEPING))
        return -EAGAIN;
    if (!is_pn_valid(inpn))
        return -EINVAL;
    if (!is_page_pid(inpn, current))
        return -EACCES;
    if (size > PAGE_SIZE)
        return -EINVAL;
    if (is_fd_valid(infd) && !is_fn_valid(get_fd(current, infd)))
        return -EINVAL;
    if (!is_pn_valid(outpn))
        return -EINVAL;
    if (!is_page_pid(outpn, current))
        return -EACCES;
    if (!is_page_type(outpn, PAGE_TYPE_FRAME))
        return -EINVAL;
    if (is_fd_valid(outfd) && is_fn_valid(get_fd(current, outfd)))
        return -EINVAL;
    assert(pid != current);
    to = get_proc(pid);
    if (to->ipc_from != 0 && to->ipc_from != current)
        return -EACCES;

    cur = get_proc(current);
    cur->ipc_page = outpn;
    cur->ipc_fd = outfd;
    to->ipc_from = current;
    to->ipc_val = val;
    copy_words(get_page(to->ipc_page), get_page(inpn), size / 8);
    to->ipc_size = size;
    if (is_fd_valid(infd) && is_fd_valid(to->ipc_fd))
        set_fd(pid, to->ipc_fd, get_fd(current, infd));
    cur->state = PROC_SLEEPING;
    to->state = PROC_RUNNING;
    proc_ready_add(pid);
    proc_ready_del(current);
    return 0;
}
