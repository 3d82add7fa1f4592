/*
 * I/O ports. A port is owned by one process (io_table; 0 means free, -1
 * reserved by the kernel). A process that uses ports has an I/O bitmap of
 * two pages, io_bitmap_a for ports 0x0000..0x7fff and io_bitmap_b for
 * 0x8000..0xffff, where a clear bit lets the process access the port.
 */
#include "kernel.h"

#define PORTS_PER_BITMAP 0x8000

/*
 * Give current an I/O bitmap: three consecutive FREE pages (the hardware
 * reads three), all ones (no port allowed). Only the first two are recorded.
 */
int sys_alloc_io_bitmap(pn_t pn1, pn_t pn2, pn_t pn3)
{
    struct proc *cur;

    if (pn1 + 1 != pn2 || pn2 + 1 != pn3)
        return -EINVAL;
    cur = get_proc(current);
    if (cur->use_io_bitmap)
        return -EEXIST;
    if (!is_page_type(pn1, PAGE_TYPE_FREE))
        return -EINVAL;
    if (!is_page_type(pn2, PAGE_TYPE_FREE))
        return -EINVAL;
    if (!is_page_type(pn3, PAGE_TYPE_FREE))
        return -EINVAL;
    alloc_page(current, PAGE_TYPE_PROC_DATA, pn1);
    alloc_page(current, PAGE_TYPE_PROC_DATA, pn2);
    alloc_page(current, PAGE_TYPE_PROC_DATA, pn3);
    memset(get_page(pn1), 0xff, PAGE_SIZE);
    memset(get_page(pn2), 0xff, PAGE_SIZE);
    memset(get_page(pn3), 0xff, PAGE_SIZE);
    hvm_set_io_bitmap(get_page(cur->hvm), get_page(pn1));
    cur->io_bitmap_a = pn1;
    cur->io_bitmap_b = pn2;
    cur->use_io_bitmap = 1;
    return 0;
}

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
    /* Both bitmap pages are valid while use_io_bitmap is set (invariant). */
    bitmap = port < PORTS_PER_BITMAP ? cur->io_bitmap_a : cur->io_bitmap_b;
    bit = port % PORTS_PER_BITMAP;
    get_page(bitmap)[bit / 64] &= ~(1UL << (bit % 64));
    cur->nr_ports++;
    return 0;
}

/* Take a port back from a ZOMBIE owner. Its bitmap is left as it is. */
int sys_reclaim_port(uint16_t port)
{
    pid_t owner = io_table[port];

    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    io_table[port] = 0;
    get_proc(owner)->nr_ports--;
    return 0;
}
