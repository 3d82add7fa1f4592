// expect: refuted pages.data
// High ports clear their bit in io_bitmap_a instead of io_bitmap_b.
#include "kernel.h"

int sys_alloc_port(uint16_t port)
{
    struct proc *cur;
    size_t bit;

    if (io_table[port] != 0)
        return -EBUSY;
    cur = get_proc(current);
    if (!cur->use_io_bitmap)
        return -EACCES;
    io_table[port] = current;
    bit = port % 0x8000;
    get_page(cur->io_bitmap_a)[bit / 64] &= ~(1UL << (bit % 64));
    cur->nr_ports++;
    return 0;
}
