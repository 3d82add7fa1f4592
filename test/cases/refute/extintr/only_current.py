# expect: refuted cond
# mistake: interrupts are only delivered to the running process
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt


def extintr(old, vector):
    owner = old.vectors[vector].owner

    # The vector belongs to a real process (not free, not kernel-reserved).
    cond = owner == old.current

    # The owner's pending set is 256 bits stored as four 64-bit words.
    v = z3.ZeroExt(56, vector)
    word = z3.UDiv(v, util.i64(64))
    mask = util.i64(1) << z3.URem(v, util.i64(64))

    pending = old.copy()
    pending.procs[owner].intr[word] = old.procs[owner].intr(word) | mask

    # A sleeping owner is woken with the vector as its message.
    woken = pending.copy()
    woken.procs[owner].state = dt.proc_state.PROC_RUNNABLE
    woken.procs[owner].ipc_from = z3.BitVecVal(0, dt.pid_t)
    woken.procs[owner].ipc_val = v
    woken.procs[owner].ipc_size = z3.BitVecVal(0, dt.size_t)

    sleeping = old.procs[owner].state == dt.proc_state.PROC_SLEEPING

    return cond, util.If(cond, util.If(sleeping, woken, pending), old)
