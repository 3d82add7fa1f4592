// expect: refuted procs.intr
// The pending bit is set instead of cleared.
#include "kernel.h"

int sys_ack_intr(uint8_t vector)
{
    struct proc *cur = get_proc(current);

    cur->intr[vector / 64] |= 1UL << (vector % 64);
    return 0;
}
