/** A passing answer to the teacher view's example exercise (sys_alloc_vector, refuted on v2), for the browser tests. */
export const ALLOC_VECTOR_ANSWER = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt


def sys_alloc_vector(old, vector):
    cur = old.current
    cond = old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t)
    new = old.copy()
    new.vectors[vector].owner = cur
    new.procs[cur].nr_vectors[vector] += 1
    return cond, util.If(cond, new, old)
`;
