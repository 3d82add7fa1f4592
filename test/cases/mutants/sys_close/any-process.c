// expect: refuted cond
// Any process may close another live process's descriptors.
#include "kernel.h"

int sys_close(pid_t pid, int fd)
{
    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_fd_valid(fd))
        return -EBADF;
    if (get_fd(pid, fd) == 0)
        return -EBADF;
    clear_fd(pid, fd);
    return 0;
}
