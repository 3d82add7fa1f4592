// expect: refuted cond
// A port is taken from any valid owner, not only from a zombie.
#include "kernel.h"

int sys_reclaim_port(uint16_t port)
{
    pid_t owner = io_table[port];

    if (!is_pid_valid(owner))
        return -EACCES;
    io_table[port] = 0;
    get_proc(owner)->nr_ports--;
    return 0;
}
