// expect: refuted procs.intr
// The word index is taken from the low bits of the vector.
#include "kernel.h"

int sys_ack_intr(uint8_t vector)
{
    struct proc *cur = get_proc(current);

    cur->intr[vector % 4] &= ~(1UL << (vector % 64));
    return 0;
}
