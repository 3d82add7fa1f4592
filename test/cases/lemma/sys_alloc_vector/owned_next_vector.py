# expect: verified
# expect: lemma-fail nr_vectors_refcnt
# ghost mistake: the permutation records the next vector
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt


def sys_alloc_vector(old, vector):
    cur = old.current

    cond = z3.And(
        # the vector is free (not owned, not reserved by the kernel)
        old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t),
    )

    new = old.copy()
    new.vectors[vector].owner = cur
    new.procs[cur].nr_vectors[vector + z3.BitVecVal(1, dt.uint8_t)] += 1

    return cond, util.If(cond, new, old)
