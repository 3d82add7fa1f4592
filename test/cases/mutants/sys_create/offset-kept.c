// expect: refuted files.offset
// The new file inherits the stale offset of the slot's previous user.
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
    if (f->refcnt != 0)
        return -EINVAL;
    f->type = type;
    f->value = value;
    f->omode = omode;
    set_fd(current, fd, fn);
    return 0;
}
