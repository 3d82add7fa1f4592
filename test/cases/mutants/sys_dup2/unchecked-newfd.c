// expect: refuted safety
// newfd is used before it is checked.
#include "kernel.h"

int sys_dup2(int oldfd, pid_t pid, int newfd)
{
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
    if (pid == current && oldfd == newfd)
        return 0;
    if (get_fd(pid, newfd) != 0)
        clear_fd(pid, newfd);
    set_fd(pid, newfd, fn);
    return 0;
}
