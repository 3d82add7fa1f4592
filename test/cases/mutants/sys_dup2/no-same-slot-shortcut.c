// expect: refuted files.type
// dup2(fd, current, fd) closes and reopens the slot: a file whose only
// reference is that slot is reset to FD_NONE on the way.
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
    if (!is_fd_valid(newfd))
        return -EBADF;
    if (get_fd(pid, newfd) != 0)
        clear_fd(pid, newfd);
    set_fd(pid, newfd, fn);
    return 0;
}
