// expect: refuted cond pci.owner
// A device that another process owns can be claimed.
#include "kernel.h"

int sys_alloc_iommu_root(devid_t devid, pn_t pn)
{
    if (!is_page_type(pn, PAGE_TYPE_FREE))
        return -EINVAL;
    pci_table[devid] = current;
    alloc_page(current, PAGE_TYPE_IOMMU_PML4, pn);
    get_proc(current)->nr_devs++;
    iommu_set_dev_root(devid, (uintptr_t)get_page(pn));
    iommu_flush();
    return 0;
}
