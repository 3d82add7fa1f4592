// expect: refuted cond pages.data
// Register pages of devices owned by other processes can be mapped.
#include "kernel.h"

int sys_map_pcipage(pn_t pt, size_t index, pn_t pcipn, pte_t perm)
{
    if (pcipn >= NPCIPAGE || !pcipages[pcipn].valid)
        return -EINVAL;
    return map_page(current, pt, index, PCI_START / PAGE_SIZE + pcipn, perm,
                    PAGE_TYPE_X86_PT);
}
