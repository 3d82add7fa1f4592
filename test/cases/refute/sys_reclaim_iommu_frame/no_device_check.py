# expect: refuted cond
# mistake: DMA pages of a zombie that still owns devices may be freed
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_dmapn_valid


def sys_reclaim_iommu_frame(old, dmapn):
    owner = old.dmapages[dmapn].owner

    cond = z3.And(
        # dmapn is a DMA page number
        is_dmapn_valid(dmapn),
        # the DMA page is in use
        old.dmapages[dmapn].type != dt.page_type.PAGE_TYPE_FREE,
        # by a real process
        is_pid_valid(owner),
        # which has exited
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )

    new = old.copy()

    # Take the page from its owner (read before the owner is cleared), then free it.
    new.procs[new.dmapages[dmapn].owner].nr_dmapages[dmapn] -= 1
    new.dmapages[dmapn].type = dt.page_type.PAGE_TYPE_FREE
    new.dmapages[dmapn].owner = z3.BitVecVal(0, dt.pid_t)

    return cond, util.If(cond, new, old)
