# expect: refuted cond
# mistake: may switch to a process that is not RUNNABLE
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_switch(old, pid):
    cur = old.current

    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # and it is not the caller itself
        cur != pid,
    )

    new = old.copy()

    # The caller gives up the CPU; a killed caller dies on the way out.
    new.procs[cur].state = util.If(old.procs[cur].killed,
                                   dt.proc_state.PROC_ZOMBIE,
                                   dt.proc_state.PROC_RUNNABLE)
    new.procs[pid].state = dt.proc_state.PROC_RUNNING
    new.current = pid

    return cond, util.If(cond, new, old)


switch_proc = sys_switch
