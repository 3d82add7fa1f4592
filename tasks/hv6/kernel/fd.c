/*
 * File descriptors. A process's slot ofile[fd] holds 0 or a valid fn, and
 * file_table[fn].refcnt counts the slots (over all processes) that hold fn.
 * A file whose count drops to 0 is reset to FD_NONE.
 */
#include "kernel.h"

/* Put fn into pid's empty slot fd. */
void set_fd(pid_t pid, int fd, fn_t fn)
{
    struct proc *p = get_proc(pid);
    struct file *f = get_file(fn);

    assert(get_fd(pid, fd) == 0);
    p->ofile[fd] = fn;
    p->nr_fds++;
    f->refcnt++;
}

/* Empty pid's occupied slot fd, dropping the file when it was the last holder. */
void clear_fd(pid_t pid, int fd)
{
    struct proc *p = get_proc(pid);
    struct file *f = get_file(get_fd(pid, fd));

    p->ofile[fd] = 0;
    p->nr_fds--;
    f->refcnt--;
    if (f->refcnt == 0) {
        f->type = FD_NONE;
        f->value = 0;
        f->offset = 0;
        f->omode = 0;
    }
}

/* Fill the unused file fn and open it in current's empty slot fd. */
int sys_create(int fd, fn_t fn, uint64_t type, uint64_t value, uint64_t omode)
{
    struct file *f;

    if (type == FD_NONE)
        return -EINVAL;
    if (!is_fd_valid(fd))
        return -EBADF;
    /* A slot holds 0 or a valid fn (invariant), so != 0 means "in use". */
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
    f->offset = 0;
    set_fd(current, fd, fn);
    return 0;
}

/* Close fd of current, or of a ZOMBIE being cleaned up. */
int sys_close(pid_t pid, int fd)
{
    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_fd_valid(fd))
        return -EBADF;
    if (pid != current && !is_proc_state(pid, PROC_ZOMBIE))
        return -EACCES;
    if (get_fd(pid, fd) == 0)
        return -EBADF;
    clear_fd(pid, fd);
    return 0;
}

/* Copy current's oldfd into the empty slot newfd of pid (current or its embryo). */
int sys_dup(int oldfd, pid_t pid, int newfd)
{
    fn_t fn;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    if (!is_fd_valid(oldfd))
        return -EBADF;
    fn = get_fd(current, oldfd);
    if (fn == 0)
        return -EBADF;
    if (!is_fd_valid(newfd))
        return -EBADF;
    if (get_fd(pid, newfd) != 0)
        return -EINVAL;
    set_fd(pid, newfd, fn);
    return 0;
}

/* Like sys_dup, but first closes whatever pid's newfd holds. */
int sys_dup2(int oldfd, pid_t pid, int newfd)
{
    fn_t fn;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    if (!is_fd_valid(oldfd))
        return -EBADF;
    fn = get_fd(current, oldfd);
    if (fn == 0)
        return -EBADF;
    if (!is_fd_valid(newfd))
        return -EBADF;
    /* Duplicating a slot onto itself changes nothing. */
    if (pid == current && oldfd == newfd)
        return 0;
    if (get_fd(pid, newfd) != 0)
        clear_fd(pid, newfd);
    set_fd(pid, newfd, fn);
    return 0;
}

/* Set the offset of current's open inode fd. */
int sys_lseek(int fd, off_t offset)
{
    fn_t fn;

    if (!is_fd_valid(fd))
        return -EBADF;
    fn = get_fd(current, fd);
    if (!is_file_type(fn, FD_INODE))
        return -EINVAL;
    if (offset < 0)
        return -EINVAL;
    get_file(fn)->offset = offset;
    return 0;
}
