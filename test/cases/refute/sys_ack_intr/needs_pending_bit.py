# expect: refuted cond
# mistake: acknowledging fails unless the interrupt is pending
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt


def sys_ack_intr(old, vector):
    cur = old.current

    # The caller's pending set is 256 bits stored as four 64-bit words.
    v = z3.ZeroExt(56, vector)
    word = z3.UDiv(v, util.i64(64))
    mask = util.i64(1) << z3.URem(v, util.i64(64))

    new = old.copy()
    new.procs[cur].intr[word] = old.procs[cur].intr(word) & ~mask

    # Acknowledging always succeeds.
    return old.procs[cur].intr(word) & mask != util.i64(0), new
