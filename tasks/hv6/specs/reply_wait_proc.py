import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
# uses: send_recv


def sys_reply_wait(old, pid, val, inpn, size, infd, outpn):
    # Reply to pid, then wait for the next request: no descriptor can be
    # received (outfd is -1).
    cond, sent = send_recv(old, pid, val, inpn, size, infd, outpn,
                           z3.BitVecVal(-1, dt.fd_t))

    # Work on a copy so that the pre-state is never modified in place.
    new = sent.copy()
    # The next request may come from anyone.
    new.procs[old.current].ipc_from = z3.BitVecVal(0, dt.pid_t)
    new.current = pid

    return cond, util.If(cond, new, old)


reply_wait_proc = sys_reply_wait
