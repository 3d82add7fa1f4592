# expect: refuted cond
# mistake: owned and reserved vectors may be claimed
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt


def sys_alloc_vector(old, vector):
    cur = old.current

    cond = z3.And(
        # the vector is free (not owned, not reserved by the kernel)
        z3.BoolVal(True),
    )

    new = old.copy()
    new.vectors[vector].owner = cur
    new.procs[cur].nr_vectors[vector] += 1

    return cond, util.If(cond, new, old)
