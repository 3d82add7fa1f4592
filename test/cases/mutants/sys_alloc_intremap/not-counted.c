// expect: refuted procs.nr_intremaps
// The entry is taken but not counted.
#include "kernel.h"

int sys_alloc_intremap(size_t index, devid_t devid, uint8_t vector)
{
    struct intremap *ir;

    if (!is_intremap_state(index, IR_FREE))
        return -EINVAL;
    if (pci_table[devid] != current)
        return -EACCES;
    if (vector_table[vector] != current)
        return -EACCES;
    ir = &intremap_table[index];
    ir->state = IR_ACTIVE;
    ir->devid = devid;
    ir->vector = vector;
    iommu_set_intremap(index, devid, vector);
    return 0;
}
