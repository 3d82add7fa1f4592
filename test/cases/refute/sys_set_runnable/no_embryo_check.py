# expect: refuted cond
# mistake: the state of the child is not checked
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_set_runnable(old, pid):
    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the caller is its parent
        old.procs[pid].ppid == old.current,
    )

    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE

    return cond, util.If(cond, new, old)
