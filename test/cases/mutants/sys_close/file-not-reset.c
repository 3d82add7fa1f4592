// expect: refuted files.type
// clear_fd leaves a file whose last descriptor closed with its old type.
#include "kernel.h"

void clear_fd(pid_t pid, int fd)
{
    struct proc *p = get_proc(pid);
    struct file *f = get_file(get_fd(pid, fd));

    p->ofile[fd] = 0;
    p->nr_fds--;
    f->refcnt--;
    if (f->refcnt == 0) {
        f->value = 0;
        f->offset = 0;
        f->omode = 0;
    }
}
