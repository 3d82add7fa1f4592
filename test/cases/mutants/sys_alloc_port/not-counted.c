// expect: refuted procs.nr_ports
// The port is taken but not counted.
#include "kernel.h"

int sys_alloc_port(uint16_t port)
{
    struct proc *cur;
    pn_t bitmap;
    size_t bit;

    if (io_table[port] != 0)
        return -EBUSY;
    cur = get_proc(current);
    if (!cur->use_io_bitmap)
        return -EACCES;
    io_table[port] = current;
    bitmap = port < 0x8000 ? cur->io_bitmap_a : cur->io_bitmap_b;
    bit = port % 0x8000;
    get_page(bitmap)[bit / 64] &= ~(1UL << (bit % 64));
    return 0;
}
