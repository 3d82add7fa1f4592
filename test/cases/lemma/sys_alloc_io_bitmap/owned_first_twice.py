# expect: verified
# expect: lemma-fail nr_pages_refcnt
# ghost mistake: the third page is recorded as the first one again
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pn_valid


def sys_alloc_io_bitmap(old, pn1, pn2, pn3):
    cur = old.current
    one = z3.BitVecVal(1, dt.pn_t)

    cond = z3.And(
        # the second page follows the first (64-bit wrap-around arithmetic)
        pn1 + one == pn2,
        # and the third follows the second
        pn2 + one == pn3,
        # the caller has no I/O bitmap yet
        z3.Not(old.procs[cur].use_io_bitmap),
        # the first page is a RAM page number
        is_pn_valid(pn1),
        # and it is free
        old.pages[pn1].type == dt.page_type.PAGE_TYPE_FREE,
        # the second page is a RAM page number
        is_pn_valid(pn2),
        # and it is free
        old.pages[pn2].type == dt.page_type.PAGE_TYPE_FREE,
        # the third page is a RAM page number
        is_pn_valid(pn3),
        # and it is free
        old.pages[pn3].type == dt.page_type.PAGE_TYPE_FREE,
    )

    new = old.copy()

    # All three pages become the caller's and start with every bit set:
    # a set bit denies access to the port.
    ones = z3.BitVecVal(0xFFFFFFFFFFFFFFFF, dt.uint64_t)
    new.pages[pn1].owner = cur
    new.pages[pn1].type = dt.page_type.PAGE_TYPE_PROC_DATA
    new.pages[pn1].data = ones
    new.procs[cur].nr_pages[pn1] += 1

    new.pages[pn2].owner = cur
    new.pages[pn2].type = dt.page_type.PAGE_TYPE_PROC_DATA
    new.pages[pn2].data = ones
    new.procs[cur].nr_pages[pn2] += 1

    new.pages[pn3].owner = cur
    new.pages[pn3].type = dt.page_type.PAGE_TYPE_PROC_DATA
    new.pages[pn3].data = ones
    new.procs[cur].nr_pages[pn1] += 1

    new.procs[cur].io_bitmap_a = pn1
    new.procs[cur].io_bitmap_b = pn2
    new.procs[cur].use_io_bitmap = z3.BoolVal(True)

    return cond, util.If(cond, new, old)
