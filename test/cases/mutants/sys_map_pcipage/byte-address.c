// expect: refuted pages.data
// The frame number is computed from the byte address without dividing by
// the page size.
#include "kernel.h"

int sys_map_pcipage(pn_t pt, size_t index, pn_t pcipn, pte_t perm)
{
    if (pcipn >= NPCIPAGE || !pcipages[pcipn].valid)
        return -EINVAL;
    if (pci_table[pcipages[pcipn].devid] != current)
        return -EACCES;
    return map_page(current, pt, index, PCI_START + pcipn, perm, PAGE_TYPE_X86_PT);
}
