// expect: refuted safety
// The index is not range-checked before the table is read.
#include "kernel.h"

int sys_alloc_intremap(size_t index, devid_t devid, uint8_t vector)
{
    struct intremap *ir = &intremap_table[index];

    if (ir->state != IR_FREE)
        return -EINVAL;
    if (pci_table[devid] != current)
        return -EACCES;
    if (vector_table[vector] != current)
        return -EACCES;
    ir->state = IR_ACTIVE;
    ir->devid = devid;
    ir->vector = vector;
    get_proc(current)->nr_intremaps++;
    iommu_set_intremap(index, devid, vector);
    return 0;
}
