// expect: refuted cond files.refcnt
// The refcnt check is gone: a file that is already open is overwritten.
#include "kernel.h"

int sys_create(int fd, fn_t fn, uint64_t type, uint64_t value, uint64_t omode)
{
    struct file *f;

    if (type == FD_NONE)
        return -EINVAL;
    if (!is_fd_valid(fd))
        return -EBADF;
    if (get_fd(current, fd) != 0)
        return -EINVAL;
    if (!is_fn_valid(fn))
        return -EINVAL;
    f = get_file(fn);
    f->type = type;
    f->value = value;
    f->omode = omode;
    f->offset = 0;
    set_fd(current, fd, fn);
    return 0;
}
