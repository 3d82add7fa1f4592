// expect: refuted cond
// A vector is reclaimed while its zombie owner still has remapping entries.
#include "kernel.h"

int sys_reclaim_vector(uint8_t vector)
{
    pid_t owner = vector_table[vector];

    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    vector_table[vector] = 0;
    get_proc(owner)->nr_vectors--;
    return 0;
}
