# expect: refuted io.owner
# mistake: the port stays owned
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
    new.procs[owner].nr_ports[port] -= 1

    return cond, util.If(cond, new, old)
