# expect: verified
# expect: lemma-fail nr_intremaps_refcnt
# ghost mistake: the permutation releases the next entry
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_intremap_valid


def sys_reclaim_intremap(old, index):
    owner = old.pci[old.intremaps[index].devid].owner

    cond = z3.And(
        # index names an interrupt-remapping entry
        is_intremap_valid(index),
        # which is in use
        old.intremaps[index].state == dt.intremap_state.IR_ACTIVE,
        # its device belongs to a real process
        is_pid_valid(owner),
        # which has exited
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )

    new = old.copy()

    new.intremaps[index].state = dt.intremap_state.IR_FREE
    new.intremaps[index].devid = z3.BitVecVal(0, dt.devid_t)
    new.intremaps[index].vector = z3.BitVecVal(0, dt.uint8_t)
    new.procs[owner].nr_intremaps[index + z3.BitVecVal(1, dt.size_t)] -= 1

    return cond, util.If(cond, new, old)
