// expect: refuted current
// The caller sleeps but stays `current`; the server never runs.
#include "kernel.h"

int call_proc(pid_t pid, uint64_t val, pn_t inpn, size_t size, pn_t outpn, int outfd)
{
    int r;

    r = send_recv(pid, val, inpn, size, -1, outpn, outfd);
    if (r != 0)
        return r;
    get_proc(current)->ipc_from = pid;
    return 0;
}
