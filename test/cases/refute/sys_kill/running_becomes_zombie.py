# expect: refuted procs.state
# mistake: a running process turns into a zombie at once
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_kill(old, pid):
    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the slot holds a process
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
        # which is not already dead
        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,
    )

    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    # A running process is only marked; it turns into a zombie when it switches away.
    new.procs[pid].state = util.If(z3.BoolVal(True),
                                   dt.proc_state.PROC_ZOMBIE,
                                   old.procs[pid].state)

    return cond, util.If(cond, new, old)
