// expect: refuted procs.ipc_size
// A woken sleeper keeps the ipc_size of its last message.
#include "kernel.h"

int extintr(uint8_t vector)
{
    pid_t owner = vector_table[vector];
    struct proc *p;

    if (!is_pid_valid(owner))
        return -EINVAL;
    p = get_proc(owner);
    p->intr[vector / 64] |= 1UL << (vector % 64);
    if (p->state == PROC_SLEEPING) {
        p->state = PROC_RUNNABLE;
        p->ipc_from = 0;
        p->ipc_val = vector;
    }
    return 0;
}
