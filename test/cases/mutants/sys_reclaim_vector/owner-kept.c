// expect: refuted vectors.owner
// The count drops but the vector keeps its owner.
#include "kernel.h"

int sys_reclaim_vector(uint8_t vector)
{
    pid_t owner = vector_table[vector];
    struct proc *p;

    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    p = get_proc(owner);
    if (p->nr_intremaps != 0)
        return -EBUSY;
    p->nr_vectors--;
    return 0;
}
