// expect: refuted cond
// The sign test is made on the unsigned value, so offsets >= 2^63 pass
// and a zero offset is refused.
#include "kernel.h"

int sys_lseek(int fd, off_t offset)
{
    fn_t fn;

    if (!is_fd_valid(fd))
        return -EBADF;
    fn = get_fd(current, fd);
    if (!is_file_type(fn, FD_INODE))
        return -EINVAL;
    if ((uint64_t)offset < 1)
        return -EINVAL;
    get_file(fn)->offset = offset;
    return 0;
}
