# expect: refuted procs.nr_fds
# mistake: closing the old target does not decrement nr_fds
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid


def sys_dup2(old, oldfd, pid, newfd):
    cur = old.current

    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the target is the caller, or an embryo child of the caller
        z3.Or(pid == cur,
              z3.And(old.procs[pid].ppid == cur,
                     old.procs[pid].state == dt.proc_state.PROC_EMBRYO)),
        # oldfd is a descriptor number
        is_fd_valid(oldfd),
        # and the caller's oldfd is open
        is_fn_valid(old.procs[cur].ofile(oldfd)),
        # newfd is a descriptor number
        is_fd_valid(newfd),
    )

    # Step 1: if the target slot is open, close it first.
    victim = old.procs[pid].ofile(newfd)
    closed = old.copy()
    closed.procs[pid].ofile[newfd] = z3.BitVecVal(0, dt.fn_t)
    closed.files[victim].refcnt[(pid, newfd)] -= 1
    last = closed.files[victim].refcnt() == z3.BitVecVal(0, dt.size_t)
    closed.files[victim].type = util.If(last, dt.file_type.FD_NONE,
                                        closed.files[victim].type)
    closed.files[victim].value = util.If(last, z3.BitVecVal(0, dt.uint64_t),
                                         closed.files[victim].value)
    closed.files[victim].offset = util.If(last, z3.BitVecVal(0, dt.off_t),
                                          closed.files[victim].offset)
    closed.files[victim].omode = util.If(last, z3.BitVecVal(0, dt.uint64_t),
                                         closed.files[victim].omode)

    new = util.If(is_fn_valid(victim), closed, old.copy())

    # Step 2: install the caller's oldfd file in the target slot.
    fn = new.procs[cur].ofile(oldfd)
    new.procs[pid].ofile[newfd] = fn
    new.procs[pid].nr_fds[newfd] += 1
    new.files[fn].refcnt[(pid, newfd)] += 1

    # Duplicating a descriptor onto itself changes nothing.
    same = z3.And(cur == pid, oldfd == newfd)

    return cond, util.If(cond, util.If(same, old.copy(), new), old)
