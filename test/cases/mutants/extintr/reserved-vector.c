// expect: refuted safety
// Only free vectors are rejected: a kernel vector (owner -1) reaches get_proc.
#include "kernel.h"

int extintr(uint8_t vector)
{
    pid_t owner = vector_table[vector];
    struct proc *p;

    if (owner == 0)
        return -EINVAL;
    p = get_proc(owner);
    p->intr[vector / 64] |= 1UL << (vector % 64);
    if (p->state == PROC_SLEEPING) {
        p->state = PROC_RUNNABLE;
        p->ipc_from = 0;
        p->ipc_val = vector;
        p->ipc_size = 0;
    }
    return 0;
}
