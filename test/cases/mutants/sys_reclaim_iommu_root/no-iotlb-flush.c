// expect: refuted iotlbinv
// The device's root is reset without flushing the IOTLB.
#include "kernel.h"

int sys_reclaim_iommu_root(devid_t devid)
{
    pid_t owner = pci_table[devid];
    struct proc *p;

    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    p = get_proc(owner);
    if (p->nr_intremaps != 0)
        return -EBUSY;
    p->nr_devs--;
    pci_table[devid] = 0;
    iommu_reset_dev_root(devid);
    return 0;
}
