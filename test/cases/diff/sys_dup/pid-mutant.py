# expect: different cond
# mistake: one token: the embryo child's state compared with PROC_RUNNABLE.
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid


def sys_dup(old, oldfd, pid, newfd):
    cur = old.current
    fn = old.procs[cur].ofile(oldfd)

    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the target is the caller, or an embryo child of the caller
        z3.Or(pid == cur,
              z3.And(old.procs[pid].ppid == cur,
                     old.procs[pid].state == dt.proc_state.PROC_RUNNABLE)),
        # oldfd is a descriptor number
        is_fd_valid(oldfd),
        # and the caller's oldfd is open
        is_fn_valid(fn),
        # newfd is a descriptor number
        is_fd_valid(newfd),
        # and the target's newfd is empty
        z3.Not(is_fn_valid(old.procs[pid].ofile(newfd))),
    )

    new = old.copy()

    new.procs[pid].ofile[newfd] = fn
    new.procs[pid].nr_fds[newfd] += 1
    new.files[fn].refcnt[(pid, newfd)] += 1

    return cond, util.If(cond, new, old)
