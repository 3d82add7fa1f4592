// expect: refuted procs.ipc_from
// The server then only accepts the next request from the client it answered.
#include "kernel.h"

int reply_wait_proc(pid_t pid, uint64_t val, pn_t inpn, size_t size, int infd, pn_t outpn)
{
    int r;

    r = send_recv(pid, val, inpn, size, infd, outpn, -1);
    if (r != 0)
        return r;
    get_proc(current)->ipc_from = pid;
    current = pid;
    return 0;
}
