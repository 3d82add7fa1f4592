# expect: verified
# expect: lemma-fail iommu_isolation
# ghost mistake: the device root is recorded as page 0
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pn_valid


def sys_alloc_iommu_root(old, devid, pn):
    cur = old.current

    cond = z3.And(
        # nobody owns the device yet
        old.pci[devid].owner == z3.BitVecVal(0, dt.pid_t),
        # the root page is a RAM page number
        is_pn_valid(pn),
        # and it is free
        old.pages[pn].type == dt.page_type.PAGE_TYPE_FREE,
    )

    new = old.copy()

    new.pci[devid].owner = cur
    new.pci[devid].page_table_root = z3.BitVecVal(0, dt.pn_t)

    new.pages[pn].owner = cur
    new.pages[pn].type = dt.page_type.PAGE_TYPE_IOMMU_PML4
    new.pages[pn].data = z3.BitVecVal(0, dt.uint64_t)

    new.procs[cur].nr_pages[pn] += 1
    new.procs[cur].nr_devs[devid] += 1

    new.flush_iotlb()

    return cond, util.If(cond, new, old)
