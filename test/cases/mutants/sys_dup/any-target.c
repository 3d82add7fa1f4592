// expect: refuted cond
// The target need not be current or its embryo.
#include "kernel.h"

int sys_dup(int oldfd, pid_t pid, int newfd)
{
    fn_t fn;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_fd_valid(oldfd))
        return -EBADF;
    fn = get_fd(current, oldfd);
    if (fn == 0)
        return -EBADF;
    if (!is_fd_valid(newfd))
        return -EBADF;
    if (get_fd(pid, newfd) != 0)
        return -EINVAL;
    set_fd(pid, newfd, fn);
    return 0;
}
