# expect: refuted procs.nr_vectors
# mistake: the caller's count instead of the owner's goes down
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
        # and no interrupt-remapping entry of that process can still route to it
        old.procs[owner].nr_intremaps() == z3.BitVecVal(0, dt.size_t),
    )

    new = old.copy()
    new.vectors[vector].owner = z3.BitVecVal(0, dt.pid_t)
    new.procs[old.current].nr_vectors[vector] -= 1

    return cond, util.If(cond, new, old)
