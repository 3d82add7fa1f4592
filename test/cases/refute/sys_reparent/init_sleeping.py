# expect: refuted cond
# mistake: wrong set of acceptable init states
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_reparent(old, pid):
    parent = old.procs[pid].ppid
    init = dt.INITPID

    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # its parent is a real process-table slot
        is_pid_valid(parent),
        # and that parent has exited
        old.procs[parent].state == dt.proc_state.PROC_ZOMBIE,
        # init is alive and able to adopt (runnable or running)
        z3.Or(old.procs[init].state == dt.proc_state.PROC_SLEEPING,
              old.procs[init].state == dt.proc_state.PROC_RUNNING),
    )

    new = old.copy()

    # init adopts the child, the dead parent lets go of it.
    new.procs[init].nr_children[pid] += 1
    new.procs[parent].nr_children[pid] -= 1
    new.procs[pid].ppid = init

    return cond, util.If(cond, new, old)
