// expect: refuted procs.nr_ports
// The caller's nr_ports is decremented instead of the owner's.
#include "kernel.h"

int sys_reclaim_port(uint16_t port)
{
    pid_t owner = io_table[port];

    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    io_table[port] = 0;
    get_proc(current)->nr_ports--;
    return 0;
}
