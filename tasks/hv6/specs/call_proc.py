import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
# uses: send_recv


def sys_call(old, pid, val, inpn, size, outpn, outfd):
    # Send a request to pid and wait for its reply: no descriptor is sent
    # (infd is -1).
    cond, sent = send_recv(old, pid, val, inpn, size, z3.BitVecVal(-1, dt.fd_t),
                           outpn, outfd)

    # Work on a copy so that the pre-state is never modified in place.
    new = sent.copy()
    # Only the server may answer.
    new.procs[old.current].ipc_from = pid
    new.current = pid

    return cond, util.If(cond, new, old)


call_proc = sys_call
