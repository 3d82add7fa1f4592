// expect: refuted procs.ipc_from
// The caller accepts its reply from anyone, not only from the server.
#include "kernel.h"

int call_proc(pid_t pid, uint64_t val, pn_t inpn, size_t size, pn_t outpn, int outfd)
{
    int r;

    r = send_recv(pid, val, inpn, size, -1, outpn, outfd);
    if (r != 0)
        return r;
    get_proc(current)->ipc_from = 0;
    current = pid;
    return 0;
}
