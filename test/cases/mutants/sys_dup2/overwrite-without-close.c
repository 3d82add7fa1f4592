// expect: refuted procs.nr_fds files.refcnt
// An occupied newfd is overwritten in place: the old file keeps its reference
// and the slot is counted twice.
#include "kernel.h"

int sys_dup2(int oldfd, pid_t pid, int newfd)
{
    struct proc *p;
    fn_t fn;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    if (!is_fd_valid(oldfd))
        return -EBADF;
    fn = get_fd(current, oldfd);
    if (fn == 0)
        return -EBADF;
    if (!is_fd_valid(newfd))
        return -EBADF;
    if (pid == current && oldfd == newfd)
        return 0;
    p = get_proc(pid);
    p->ofile[newfd] = fn;
    p->nr_fds++;
    get_file(fn)->refcnt++;
    return 0;
}
