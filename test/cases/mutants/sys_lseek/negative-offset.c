// expect: refuted cond files.offset
// Negative offsets are accepted.
#include "kernel.h"

int sys_lseek(int fd, off_t offset)
{
    fn_t fn;

    if (!is_fd_valid(fd))
        return -EBADF;
    fn = get_fd(current, fd);
    if (!is_file_type(fn, FD_INODE))
        return -EINVAL;
    get_file(fn)->offset = offset;
    return 0;
}
