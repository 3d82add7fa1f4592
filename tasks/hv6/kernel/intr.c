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

/*
 * Route interrupts of current's device devid to current's vector, through
 * the FREE remapping entry `index`.
 */
int sys_alloc_intremap(size_t index, devid_t devid, uint8_t vector)
{
    struct intremap *ir;

    if (!is_intremap_state(index, IR_FREE))
        return -EINVAL;
    if (pci_table[devid] != current)
        return -EACCES;
    if (vector_table[vector] != current)
        return -EACCES;
    ir = &intremap_table[index];
    ir->state = IR_ACTIVE;
    ir->devid = devid;
    ir->vector = vector;
    get_proc(current)->nr_intremaps++;
    iommu_set_intremap(index, devid, vector);
    return 0;
}

/* Free an ACTIVE remapping entry whose device belongs to a ZOMBIE. */
int sys_reclaim_intremap(size_t index)
{
    struct intremap *ir;
    pid_t owner;

    if (!is_intremap_state(index, IR_ACTIVE))
        return -EINVAL;
    ir = &intremap_table[index];
    owner = pci_table[ir->devid];
    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    ir->state = IR_FREE;
    ir->devid = 0;
    ir->vector = 0;
    get_proc(owner)->nr_intremaps--;
    iommu_reset_intremap(index);
    return 0;
}

/* Acknowledge `vector`: clear it from current's pending set. */
int sys_ack_intr(uint8_t vector)
{
    struct proc *cur = get_proc(current);

    cur->intr[intr_word(vector)] &= ~intr_mask(vector);
    return 0;
}

/*
 * A hardware interrupt on `vector`: mark it pending for the vector's owner,
 * and wake the owner if it sleeps in IPC, with the vector as the message.
 * Free (0) and kernel (-1) vectors are not valid pids.
 */
int extintr(uint8_t vector)
{
    pid_t owner = vector_table[vector];
    struct proc *p;

    if (!is_pid_valid(owner))
        return -EINVAL;
    p = get_proc(owner);
    p->intr[intr_word(vector)] |= intr_mask(vector);
    if (p->state == PROC_SLEEPING) {
        /* It is not put on the ready queue. */
        p->state = PROC_RUNNABLE;
        p->ipc_from = 0;
        p->ipc_val = vector;
        p->ipc_size = 0;
    }
    return 0;
}
