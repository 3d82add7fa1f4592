// expect: refuted procs.state
// The owner is made RUNNABLE whatever its state, even when it is running.
#include "kernel.h"

int extintr(uint8_t vector)
{
    pid_t owner = vector_table[vector];
    struct proc *p;

    if (!is_pid_valid(owner))
        return -EINVAL;
    p = get_proc(owner);
    p->intr[vector / 64] |= 1UL << (vector % 64);
    p->state = PROC_RUNNABLE;
    p->ipc_from = 0;
    p->ipc_val = vector;
    p->ipc_size = 0;
    return 0;
}
