// expect: refuted cond
// oldfd is looked up in the target process instead of in current.
#include "kernel.h"

int sys_dup(int oldfd, pid_t pid, int newfd)
{
    fn_t fn;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    if (!is_fd_valid(oldfd))
        return -EBADF;
    fn = get_fd(pid, oldfd);
    if (fn == 0)
        return -EBADF;
    if (!is_fd_valid(newfd))
        return -EBADF;
    if (get_fd(pid, newfd) != 0)
        return -EINVAL;
    set_fd(pid, newfd, fn);
    return 0;
}
