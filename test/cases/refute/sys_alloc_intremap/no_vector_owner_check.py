# expect: refuted cond
# mistake: another process's vector may be targeted
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_intremap_valid


def sys_alloc_intremap(old, index, devid, vector):
    cur = old.current

    cond = z3.And(
        # index names an interrupt-remapping entry
        is_intremap_valid(index),
        # which is free
        old.intremaps[index].state == dt.intremap_state.IR_FREE,
        # the device is the caller's
        old.pci[devid].owner == cur,
    )

    new = old.copy()

    new.intremaps[index].state = dt.intremap_state.IR_ACTIVE
    new.intremaps[index].devid = devid
    new.intremaps[index].vector = vector
    new.procs[cur].nr_intremaps[index] += 1

    return cond, util.If(cond, new, old)
