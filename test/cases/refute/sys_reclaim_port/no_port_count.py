# expect: refuted procs.nr_ports
# mistake: the zombie's port count is not decremented
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_reclaim_port(old, port):
    owner = old.io[port].owner

    cond = z3.And(
        # the port belongs to a real process
        is_pid_valid(owner),
        # which has exited
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )

    new = old.copy()
    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)

    return cond, util.If(cond, new, old)
