# expect: refuted cond
# mistake: a vector still named by a remapping entry may be freed
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_reclaim_vector(old, vector):
    owner = old.vectors[vector].owner

    cond = z3.And(
        # the vector belongs to a real process
        is_pid_valid(owner),
        # which has exited
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )

    new = old.copy()
    new.vectors[vector].owner = z3.BitVecVal(0, dt.pid_t)
    new.procs[owner].nr_vectors[vector] -= 1

    return cond, util.If(cond, new, old)
