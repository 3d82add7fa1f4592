// expect: refuted cond vectors.owner
// A vector is taken even when it already has an owner (or is reserved).
#include "kernel.h"

int sys_alloc_vector(uint8_t vector)
{
    vector_table[vector] = current;
    get_proc(current)->nr_vectors++;
    return 0;
}
