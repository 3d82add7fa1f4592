// expect: refuted procs.nr_fds
// set_fd forgets to count the descriptor in the process's nr_fds.
#include "kernel.h"

void set_fd(pid_t pid, int fd, fn_t fn)
{
    struct proc *p = get_proc(pid);
    struct file *f = get_file(fn);

    assert(get_fd(pid, fd) == 0);
    p->ofile[fd] = fn;
    f->refcnt++;
}
