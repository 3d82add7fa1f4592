// expect: refuted safety
// The mask shifts by the whole vector, which can exceed 63.
#include "kernel.h"

int sys_ack_intr(uint8_t vector)
{
    struct proc *cur = get_proc(current);

    cur->intr[vector / 64] &= ~(1UL << vector);
    return 0;
}
