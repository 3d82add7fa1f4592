# expect: refuted cond
# mistake: pages of a zombie that still owns devices may be freed
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid


def sys_reclaim_page(old, pn):
    owner = old.pages[pn].owner

    cond = z3.And(
        # pn is a RAM page number
        is_pn_valid(pn),
        # the page is in use
        old.pages[pn].type != dt.page_type.PAGE_TYPE_FREE,
        # by a real process
        is_pid_valid(owner),
        # which has exited
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )

    new = old.copy()

    # Take the page from its owner (read before the owner is cleared), then free it.
    new.procs[new.pages[pn].owner].nr_pages[pn] -= 1
    new.pages[pn].type = dt.page_type.PAGE_TYPE_FREE
    new.pages[pn].owner = z3.BitVecVal(0, dt.pid_t)

    return cond, util.If(cond, new, old)
