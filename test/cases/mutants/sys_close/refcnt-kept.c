// expect: refuted files.refcnt
// clear_fd does not drop the file's reference count.
#include "kernel.h"

void clear_fd(pid_t pid, int fd)
{
    struct proc *p = get_proc(pid);
    struct file *f = get_file(get_fd(pid, fd));

    p->ofile[fd] = 0;
    p->nr_fds--;
    if (f->refcnt == 1) {
        f->type = FD_NONE;
        f->value = 0;
        f->offset = 0;
        f->omode = 0;
    }
}
