// expect: refuted files.refcnt
// set_fd forgets to count the new reference to the file.
#include "kernel.h"

void set_fd(pid_t pid, int fd, fn_t fn)
{
    struct proc *p = get_proc(pid);

    assert(is_fn_valid(fn));
    assert(get_fd(pid, fd) == 0);
    p->ofile[fd] = fn;
    p->nr_fds++;
}
