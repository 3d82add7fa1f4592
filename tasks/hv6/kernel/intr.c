/*
 * Interrupts: vector ownership, interrupt remapping, and the per-process
 * 256-bit set of pending vectors (proc_table[].intr). Vector owner 0 means
 * free; the kernel reserves vectors 0..31 at boot with owner -1.
 */
#include "kernel.h"

/* The word of a 256-bit set that holds bit `vector`, and the bit's mask. */
static size_t intr_word(uint8_t vector)
{
    return vector / 64;
}

static unsigned long intr_mask(uint8_t vector)
{
    return 1UL << (vector % 64);
}

int sys_alloc_vector(uint8_t vector)
{
    if (vector_table[vector] != 0)
        return -EBUSY;
    vector_table[vector] = current;
    get_proc(current)->nr_vectors++;
    return 0;
}

/* Take a vector back from a ZOMBIE owner whose remappings are all gone. */
int sys_reclaim_vector(uint8_t vector)
{
    pid_t owner = vector_table[vector];
    struct proc *p;

    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    p = get_proc(owner);
    if (p->nr_intremaps != 0)
        return -EBUSY;
    vector_table[vector] = 0;
    p->nr_vectors--;
    return 0;
}

/* Acknowledge `vector`: clear it from current's pending set. */
int sys_ack_intr(uint8_t vector)
{
    struct proc *cur = get_proc(current);

    cur->intr[intr_word(vector)] &= ~intr_mask(vector);
    return 0;
}
