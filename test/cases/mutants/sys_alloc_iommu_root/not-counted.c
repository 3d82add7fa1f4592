// expect: refuted procs.nr_devs
// The device is claimed but not counted, so its owner can be reaped with it.
#include "kernel.h"

int sys_alloc_iommu_root(devid_t devid, pn_t pn)
{
    if (pci_table[devid] != 0)
        return -EBUSY;
    if (!is_page_type(pn, PAGE_TYPE_FREE))
        return -EINVAL;
    pci_table[devid] = current;
    alloc_page(current, PAGE_TYPE_IOMMU_PML4, pn);
    iommu_set_dev_root(devid, (uintptr_t)get_page(pn));
    iommu_flush();
    return 0;
}
