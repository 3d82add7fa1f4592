# expect: refuted cond
# mistake: ports of live processes may be taken
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_reclaim_port(old, port):
    owner = old.io[port].owner

    cond = z3.And(
        # the port belongs to a real process
        is_pid_valid(owner),
    )

    new = old.copy()
    new.procs[owner].nr_ports[port] -= 1
    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)

    return cond, util.If(cond, new, old)
