// expect: refuted cond
// The device is released while interrupt remappings still route its interrupts.
#include "kernel.h"

int sys_reclaim_iommu_root(devid_t devid)
{
    pid_t owner = pci_table[devid];

    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    get_proc(owner)->nr_devs--;
    pci_table[devid] = 0;
    iommu_reset_dev_root(devid);
    iommu_flush();
    return 0;
}
