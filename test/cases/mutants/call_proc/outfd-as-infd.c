// expect: refuted cond
// outfd is also passed as the fd to send, so a valid outfd must be both open
// (to send) and empty (to receive): every call with a valid outfd fails.
#include "kernel.h"

int call_proc(pid_t pid, uint64_t val, pn_t inpn, size_t size, pn_t outpn, int outfd)
{
    int r;

    r = send_recv(pid, val, inpn, size, outfd, outpn, outfd);
    if (r != 0)
        return r;
    get_proc(current)->ipc_from = pid;
    current = pid;
    return 0;
}
