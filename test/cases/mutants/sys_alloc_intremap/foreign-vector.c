// expect: refuted cond
// Interrupts can be routed to a vector current does not own.
#include "kernel.h"

int sys_alloc_intremap(size_t index, devid_t devid, uint8_t vector)
{
    struct intremap *ir;

    if (!is_intremap_state(index, IR_FREE))
        return -EINVAL;
    if (pci_table[devid] != current)
        return -EACCES;
    ir = &intremap_table[index];
    ir->state = IR_ACTIVE;
    ir->devid = devid;
    ir->vector = vector;
    get_proc(current)->nr_intremaps++;
    iommu_set_intremap(index, devid, vector);
    return 0;
}
