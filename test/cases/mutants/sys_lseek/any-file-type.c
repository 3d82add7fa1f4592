// expect: refuted cond
// Pipes and sockets can be seeked too: only the fn's validity is checked.
#include "kernel.h"

int sys_lseek(int fd, off_t offset)
{
    fn_t fn;

    if (!is_fd_valid(fd))
        return -EBADF;
    fn = get_fd(current, fd);
    if (!is_fn_valid(fn))
        return -EINVAL;
    if (offset < 0)
        return -EINVAL;
    get_file(fn)->offset = offset;
    return 0;
}
