# expect: verified
# expect: lemma-fail iommu_isolation
# ghost mistake: a released device keeps a valid root page
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_reclaim_iommu_root(old, devid):
    owner = old.pci[devid].owner

    cond = z3.And(
        # the device belongs to a real process
        is_pid_valid(owner),
        # which has exited
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
        # and has no interrupt-remapping entry left that could name the device
        old.procs[owner].nr_intremaps() == z3.BitVecVal(0, dt.size_t),
    )

    new = old.copy()

    new.procs[owner].nr_devs[devid] -= 1
    # The device no longer has an IOMMU root; all-ones is not a page number.
    new.pci[devid].owner = z3.BitVecVal(0, dt.pid_t)

    new.flush_iotlb()

    return cond, util.If(cond, new, old)
