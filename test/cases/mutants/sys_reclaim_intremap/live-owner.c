// expect: refuted cond
// Entries of devices whose owner is alive are reclaimed too.
#include "kernel.h"

int sys_reclaim_intremap(size_t index)
{
    struct intremap *ir;
    pid_t owner;

    if (!is_intremap_state(index, IR_ACTIVE))
        return -EINVAL;
    ir = &intremap_table[index];
    owner = pci_table[ir->devid];
    if (!is_pid_valid(owner))
        return -EACCES;
    ir->state = IR_FREE;
    ir->devid = 0;
    ir->vector = 0;
    get_proc(owner)->nr_intremaps--;
    iommu_reset_intremap(index);
    return 0;
}
