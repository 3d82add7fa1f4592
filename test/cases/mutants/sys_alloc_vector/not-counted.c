// expect: refuted procs.nr_vectors
// The vector is taken but not counted.
#include "kernel.h"

int sys_alloc_vector(uint8_t vector)
{
    if (vector_table[vector] != 0)
        return -EBUSY;
    vector_table[vector] = current;
    return 0;
}
