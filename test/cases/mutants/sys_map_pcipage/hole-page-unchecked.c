// expect: refuted cond
// Pages of the PCI hole that belong to no device are accepted as long as the
// stale devid they hold is current's.
#include "kernel.h"

int sys_map_pcipage(pn_t pt, size_t index, pn_t pcipn, pte_t perm)
{
    if (pcipn >= NPCIPAGE)
        return -EINVAL;
    if (pci_table[pcipages[pcipn].devid] != current)
        return -EACCES;
    return map_page(current, pt, index, PCI_START / PAGE_SIZE + pcipn, perm,
                    PAGE_TYPE_X86_PT);
}
