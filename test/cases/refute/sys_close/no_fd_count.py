# expect: refuted procs.nr_fds
# mistake: the descriptor count is not decremented
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid


def sys_close(old, pid, fd):
    fn = old.procs[pid].ofile(fd)

    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # fd is a descriptor number
        is_fd_valid(fd),
        # a process closes its own descriptors, or those of a zombie
        z3.Or(pid == old.current,
              old.procs[pid].state == dt.proc_state.PROC_ZOMBIE),
        # the descriptor is open
        is_fn_valid(fn),
    )

    new = old.copy()

    new.procs[pid].ofile[fd] = z3.BitVecVal(0, dt.fn_t)
    new.files[fn].refcnt[(pid, fd)] -= 1

    # When the last reference goes, the file-table entry is reset.
    released = new.copy()
    released.files[fn].type = dt.file_type.FD_NONE
    released.files[fn].value = z3.BitVecVal(0, dt.uint64_t)
    released.files[fn].offset = z3.BitVecVal(0, dt.off_t)
    released.files[fn].omode = z3.BitVecVal(0, dt.uint64_t)

    last = new.files[fn].refcnt() == z3.BitVecVal(0, dt.size_t)

    return cond, util.If(cond, util.If(last, released, new), old)
