/*
 * Synchronous IPC. A receiver sleeps (recv_proc) with a FRAME page and an
 * empty fd slot ready; a sender copies up to a page of words into that
 * frame, may pass one open file into that slot, and switches to the
 * receiver directly. Sizes are word counts: at most the whole page is copied.
 */
#include "kernel.h"

/*
 * Deliver (val, words 0..size-1 of page pn, file of current's fd) to the
 * SLEEPING pid and mark it RUNNING. The file is passed only when both fd and
 * the receiver's ipc_fd are valid slots.
 */
static void ipc_deliver(pid_t pid, uint64_t val, pn_t pn, size_t size, int fd)
{
    struct proc *to = get_proc(pid);

    to->ipc_from = current;
    to->ipc_val = val;
    /* A sleeping process's ipc_page is its own FRAME (invariant). */
    copy_words(get_page(to->ipc_page), get_page(pn), size);
    to->ipc_size = size;
    /* A sleeping process's ipc_fd slot is empty when valid (invariant). */
    if (is_fd_valid(fd) && is_fd_valid(to->ipc_fd))
        set_fd(pid, to->ipc_fd, get_fd(current, fd));
    to->state = PROC_RUNNING;
}

/* Send to the SLEEPING pid and run it; current stays RUNNABLE. */
int send_proc(pid_t pid, uint64_t val, pn_t pn, size_t size, int fd)
{
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
    /* current is RUNNING (invariant), so it is not the sleeping pid. */
    assert(pid != current);

    ipc_deliver(pid, val, pn, size, fd);
    get_proc(current)->state = PROC_RUNNABLE;
    proc_ready_add(pid);
    current = pid;
    return 0;
}

/*
 * Sleep waiting for a message into current's FRAME pn (and a file into its
 * empty slot fd, if fd is valid), and run the RUNNABLE pid meanwhile.
 */
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
    /* current is RUNNING (invariant), so it is not the runnable pid. */
    assert(pid != current);

    cur = get_proc(current);
    cur->ipc_from = 0;
    cur->ipc_page = pn;
    cur->ipc_size = 0;
    cur->ipc_fd = fd;
    cur->state = PROC_SLEEPING;
    proc_ready_del(current);
    get_proc(pid)->state = PROC_RUNNING;
    current = pid;
    return 0;
}

/*
 * Send to the SLEEPING pid and go to sleep for the answer in one step: the
 * message goes out from page inpn (with current's infd), the answer will come
 * into FRAME outpn (and slot outfd). The caller sets current and ipc_from.
 */
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
    /* current is RUNNING (invariant), so it is not the sleeping pid. */
    assert(pid != current);
    to = get_proc(pid);
    /* A receiver that waits for a reply from a given process takes no other. */
    if (to->ipc_from != 0 && to->ipc_from != current)
        return -EACCES;

    cur = get_proc(current);
    cur->ipc_page = outpn;
    cur->ipc_fd = outfd;
    ipc_deliver(pid, val, inpn, size, infd);
    cur->state = PROC_SLEEPING;
    proc_ready_add(pid);
    proc_ready_del(current);
    return 0;
}

/* Answer a client and wait for the next request, from anyone. */
int reply_wait_proc(pid_t pid, uint64_t val, pn_t inpn, size_t size, int infd, pn_t outpn)
{
    int r;

    r = send_recv(pid, val, inpn, size, infd, outpn, -1);
    if (r != 0)
        return r;
    get_proc(current)->ipc_from = 0;
    current = pid;
    return 0;
}

/* Call a server: send the request and wait for the reply from that server only. */
int call_proc(pid_t pid, uint64_t val, pn_t inpn, size_t size, pn_t outpn, int outfd)
{
    int r;

    r = send_recv(pid, val, inpn, size, -1, outpn, outfd);
    if (r != 0)
        return r;
    get_proc(current)->ipc_from = pid;
    current = pid;
    return 0;
}
