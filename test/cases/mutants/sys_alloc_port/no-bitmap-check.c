// expect: refuted safety
// Ports are granted without an I/O bitmap: the bitmap page numbers of such a
// process are arbitrary, and get_page's assertion can fail.
#include "kernel.h"

int sys_alloc_port(uint16_t port)
{
    struct proc *cur;
    pn_t bitmap;
    size_t bit;

    if (io_table[port] != 0)
        return -EBUSY;
    cur = get_proc(current);
    io_table[port] = current;
    bitmap = port < 0x8000 ? cur->io_bitmap_a : cur->io_bitmap_b;
    bit = port % 0x8000;
    get_page(bitmap)[bit / 64] &= ~(1UL << (bit % 64));
    cur->nr_ports++;
    return 0;
}
